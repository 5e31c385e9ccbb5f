import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { ConfirmButton } from '../components/confirm-button';
import { LoadError } from '../components/load-error';
import { navigate } from '../router';

/**
 * `Delete tenant` for an admin of a shared tenant, asked twice; the server refuses while the
 * tenant has projects (the refusal shows beside the button). Afterwards, the tenants screen.
 */
export function DeleteTenant({ tenantId, name }: { tenantId: string; name: string }) {
  const [error, setError] = useState<unknown>();
  const remove = async () => {
    try {
      await unwrap(api.DELETE('/api/tenants/{tenantId}', { params: { path: { tenantId } } }));
      navigate('/tenants');
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section aria-label="Delete tenant" className="inline-form">
      <h2>Delete tenant</h2>
      <p className="muted">Only a tenant without projects can go: move them to another tenant or delete them first. Its members and pending invitations go with it.</p>
      <ConfirmButton label="Delete tenant" question={`Delete the tenant “${name}”?`} confirmLabel="Confirm delete" onConfirm={() => void remove()} />
      <LoadError error={error} />
    </section>
  );
}
