import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { LoadError } from '../components/load-error';
import { navigate } from '../router';

/**
 * `Delete tenant` for an admin of a shared tenant, asked twice; the server refuses while the
 * tenant has projects (the refusal shows beside the button). Afterwards, the tenants screen.
 */
export function DeleteTenant({ tenantId, name }: { tenantId: string; name: string }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>();
  const remove = async () => {
    setAsking(false);
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
      <p className="muted">Only a tenant without projects can go: delete its projects first. Its members and pending invitations go with it.</p>
      {asking ? (
        <span className="toolbar">
          Delete the tenant “{name}”?
          <button type="button" className="danger" onClick={() => void remove()}>
            Confirm delete
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" className="danger" onClick={() => setAsking(true)}>
          Delete tenant
        </button>
      )}
      <LoadError error={error} />
    </section>
  );
}
