import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { SelectField } from '../components/select-field';
import { SubmitForm } from '../components/submit-form';
import { useLoad } from '../components/use-load';

const loadTenants = async () => (await unwrap(api.GET('/api/tenants'))).items;

/**
 * Which tenant the project belongs to, and `Move` to another of the user's tenants
 * (`POST /api/projects/{projectId}/move`: the project's owner or its tenant's admins). A refusal shows beside it.
 */
export function ProjectTenantForm({ projectId, tenantId, onMoved }: { projectId: string; tenantId: string | undefined; onMoved: () => Promise<void> }) {
  const tenants = useLoad(loadTenants, 'tenants');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState<string>();
  const current = tenants.value?.find((tenant) => tenant.id === tenantId);

  const move = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus(undefined);
    const target = String(new FormData(event.currentTarget).get('tenantId'));
    try {
      await unwrap(api.POST('/api/projects/{projectId}/move', { params: { path: { projectId } }, body: { tenantId: target } }));
      await onMoved();
      setErrors(noErrors);
      setStatus(`Moved to ${tenants.value?.find((tenant) => tenant.id === target)?.name ?? target}`);
    } catch (error) {
      setErrors(formErrors(error, ['tenantId']));
    }
  };

  return (
    <section aria-label="Tenant" className="inline-form">
      <h2>Tenant</h2>
      <LoadError error={tenants.error} />
      <p className="muted">
        {current ? `In ${current.name}${current.personal ? ' (personal)' : ''}.` : 'In a tenant you do not belong to.'} Its admins manage the project; moving it keeps its members and data.
      </p>
      {tenants.value && tenants.value.length > 1 && (
        <SubmitForm label="Move project" className="row-form" submitLabel="Move" formError={errors.form} status={status} onSubmit={move}>
          <SelectField label="Move to" name="tenantId" defaultValue={tenantId} key={tenantId} error={errors.fields.tenantId}>
            {tenants.value.map((tenant) => (
              <option key={tenant.id} value={tenant.id}>
                {tenant.name}
                {tenant.personal ? ' (personal)' : ''}
              </option>
            ))}
          </SelectField>
        </SubmitForm>
      )}
    </section>
  );
}
