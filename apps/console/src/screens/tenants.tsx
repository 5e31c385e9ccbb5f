import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LabelledTable } from '../components/labelled-table';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { tenantPath } from '../paths';
import { Link, navigate } from '../router';

const loadTenants = async () => (await unwrap(api.GET('/api/tenants'))).items;

/** The caller's tenants (its personal one first) with its role in each, and `New tenant`. */
export function Tenants() {
  const tenants = useLoad(loadTenants, 'tenants');
  const [creating, setCreating] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      const tenant = await unwrap(api.POST('/api/tenants', { body: { name: String(new FormData(event.currentTarget).get('name')) } }));
      setErrors(noErrors);
      navigate(tenantPath(tenant.id));
    } catch (error) {
      setErrors(formErrors(error, ['name']));
    }
  };

  return (
    <main>
      <h1>Tenants</h1>
      <p className="muted">A tenant holds projects for a team: its admins manage every one of them and its members.</p>
      <button type="button" onClick={() => setCreating(true)}>
        New tenant
      </button>
      {creating && (
        <form onSubmit={create} className="inline-form" noValidate aria-label="New tenant">
          <Field label="Tenant name" name="name" autoFocus error={errors.fields.name} />
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit">Create</button>
        </form>
      )}
      <LoadError error={tenants.error} />
      <LabelledTable label="Tenants" headers={['Tenant', 'Your role']}>
        {(tenants.value ?? []).map((tenant) => (
          <tr key={tenant.id}>
            <th scope="row">
              <Link to={tenantPath(tenant.id)}>{tenant.name}</Link>
              {tenant.personal && <span className="badge">Personal</span>}
            </th>
            <td>{tenant.role}</td>
          </tr>
        ))}
      </LabelledTable>
    </main>
  );
}
