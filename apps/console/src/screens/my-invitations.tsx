import { useState } from 'react';
import { shownPermissions } from '../access/permission-names';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';

type ReceivedInvitation = paths['/api/me/invitations']['get']['responses'][200]['content']['application/json']['items'][number];

const loadInvitations = async (): Promise<ReceivedInvitation[]> => (await unwrap(api.GET('/api/me/invitations'))).items;

/** What the invitation offers: "the project Lighthouse (editors)", "the tenant Acme as admin". */
function offered(invitation: ReceivedInvitation) {
  if (invitation.kind === 'tenant') {
    return (
      <>
        the tenant <strong>{invitation.name}</strong> as {invitation.role}
      </>
    );
  }
  const permissions = shownPermissions(invitation.projectId, invitation.permissions);
  return (
    <>
      the project <strong>{invitation.name}</strong>
      {permissions && ` (${permissions})`}
    </>
  );
}

function InvitationItem({ invitation, onAnswer }: { invitation: ReceivedInvitation; onAnswer: (answer: 'accept' | 'decline') => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const answer = (choice: 'accept' | 'decline') => {
    setBusy(true);
    void onAnswer(choice).finally(() => setBusy(false));
  };
  return (
    <li>
      <span>
        {invitation.inviterName} invited you to {offered(invitation)}.
      </span>
      <span>
        <button type="button" disabled={busy} onClick={() => answer('accept')} aria-label={`Accept the invitation to ${invitation.name}`}>
          Accept
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => answer('decline')} aria-label={`Decline the invitation to ${invitation.name}`}>
          Decline
        </button>
      </span>
    </li>
  );
}

/**
 * The signed-in user's pending invitations to projects and tenants (by user id; links mailed to an
 * address open their own page), answered in place. Nothing shows while there is none.
 * Joining a project opens it (`onProjectJoined`); joining a tenant says so and lists its projects
 * the user now reaches (`onTenantJoined`).
 */
export function MyInvitations({ onProjectJoined, onTenantJoined }: { onProjectJoined: (projectId: string) => Promise<void>; onTenantJoined: () => void }) {
  const invitations = useLoad(loadInvitations, 'my-invitations');
  const [error, setError] = useState<unknown>();
  const [status, setStatus] = useState<string>();

  const answer = async (invitation: ReceivedInvitation, choice: 'accept' | 'decline') => {
    const path = { invitationId: invitation.id };
    try {
      if (choice === 'accept') {
        await unwrap(api.POST('/api/me/invitations/{invitationId}/accept', { params: { path } }));
        setError(undefined);
        if (invitation.kind === 'project') return await onProjectJoined(invitation.projectId);
        setStatus(`You joined ${invitation.name}.`);
        onTenantJoined();
      } else {
        await unwrap(api.POST('/api/me/invitations/{invitationId}/decline', { params: { path } }));
        setError(undefined);
        setStatus(`Declined the invitation to ${invitation.name}.`);
      }
    } catch (failure) {
      setError(failure);
    }
    invitations.reload();
  };

  if (!invitations.value?.length && !invitations.error && !error && !status) return null;
  return (
    <section aria-label="Your invitations" className="inline-form invitations">
      <h2>Invitations</h2>
      <LoadError error={invitations.error ?? error} />
      <ul>
        {(invitations.value ?? []).map((invitation) => (
          <InvitationItem key={invitation.id} invitation={invitation} onAnswer={(choice) => answer(invitation, choice)} />
        ))}
      </ul>
      {status && <p role="status">{status}</p>}
    </section>
  );
}
