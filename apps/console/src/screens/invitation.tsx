import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { Link, navigate } from '../router';

/**
 * The page an invitation mail links to: the project's and the inviter's names, with Accept and
 * Decline. Any signed-in account may answer (holding the link is the proof); accepting opens the
 * project, declining ends the link.
 */
export function InvitationScreen({ token }: { token: string }) {
  const path = { token };
  const invitation = useLoad(() => unwrap(api.GET('/api/invitations/{token}', { params: { path } })), token);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [declined, setDeclined] = useState(false);

  const accept = async () => {
    setBusy(true);
    try {
      const member = await unwrap(api.POST('/api/invitations/{token}/accept', { params: { path } }));
      navigate(`/projects/${encodeURIComponent(member.projectId)}`, { replace: true });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  const decline = async () => {
    setBusy(true);
    try {
      await unwrap(api.POST('/api/invitations/{token}/decline', { params: { path } }));
      setDeclined(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="narrow">
      <h1>Invitation</h1>
      <LoadError error={invitation.error} />
      {declined ? (
        <p role="status">
          Invitation declined. <Link to="/projects">Your projects</Link>
        </p>
      ) : (
        invitation.value && (
          <section aria-label="Invitation">
            <p>
              <strong>{invitation.value.inviterName}</strong> invited you to the project <strong>{invitation.value.projectName}</strong>.
            </p>
            <button type="button" disabled={busy} onClick={() => void accept()}>
              Accept
            </button>{' '}
            <button type="button" className="danger" disabled={busy} onClick={() => void decline()}>
              Decline
            </button>
          </section>
        )
      )}
      <LoadError error={error} />
    </main>
  );
}
