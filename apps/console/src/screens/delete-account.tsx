import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { SubmitForm } from '../components/submit-form';
import { useLoad } from '../components/use-load';
import { useSession } from '../session';

const loadPlan = () => unwrap(api.GET('/api/me/deletion'));

/**
 * *Delete account*: what deleting it does (`GET /api/me/deletion`: the projects that go with it,
 * the tenants it leaves) or what must be done first, then the password and `Delete account`.
 */
export function DeleteAccount() {
  const { ended } = useSession();
  const plan = useLoad(loadPlan, 'deletion plan');
  const [errors, setErrors] = useState<FormErrors>(noErrors);

  const remove = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      await unwrap(api.DELETE('/api/me', { body: { password: String(new FormData(event.currentTarget).get('password')) } }));
      ended('/sign-in?account=deleted');
    } catch (error) {
      setErrors(formErrors(error, ['password']));
      plan.reload();
    }
  };

  const value = plan.value;
  return (
    <section aria-label="Delete account">
      <h2>Delete account</h2>
      <LoadError error={plan.error} />
      {value && value.blockers.length > 0 && (
        <ul aria-label="Before you can delete your account">
          {value.blockers.map((blocker) => (
            <li key={blocker.reason === 'last-tenant-admin' ? blocker.tenantId : blocker.reason}>{blocker.message}</li>
          ))}
        </ul>
      )}
      {value && value.blockers.length === 0 && (
        <>
          <p className="muted">
            Your name, email and password are erased, every device and access token is signed out, and you leave every project and tenant. Projects you own elsewhere pass to their tenant's admins.
          </p>
          {value.deletedProjects.length > 0 && <p>Deleted with it: {value.deletedProjects.map((project) => project.name).join(', ')}.</p>}
          {value.leftTenants.length > 0 && <p>You leave: {value.leftTenants.map((tenant) => tenant.name).join(', ')}.</p>}
          <SubmitForm label="Delete account" className="account" submitLabel="Delete account" danger formError={errors.form} onSubmit={remove}>
            <Field label="Your password" name="password" type="password" autoComplete="current-password" error={errors.fields.password} />
          </SubmitForm>
        </>
      )}
    </section>
  );
}
