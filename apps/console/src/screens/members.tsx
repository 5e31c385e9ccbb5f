import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { listOf, shownPermissions } from '../access/permission-names';
import { Day } from '../components/day';
import { Field } from '../components/field';
import { InvitationRow } from '../components/invitation-row';
import { LabelledTable } from '../components/labelled-table';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { useUserName } from '../components/user-name';
import { TrailLink } from '../components/trail-link';
import { MEMBERS_TYPE_ID } from '../audit/item-link';

type Member = paths['/api/projects/{projectId}/members']['get']['responses'][200]['content']['application/json']['items'][number];
type Invitation = paths['/api/projects/{projectId}/invitations']['get']['responses'][200]['content']['application/json']['items'][number];

/** One member: its permissions, changed or removed in place; the owner is marked and has no controls (the API refuses both, 409). */
function MemberRow({ projectId, member, onChanged }: { projectId: string; member: Member; onChanged: (notice: string) => void }) {
  const name = useUserName(member.userId);
  const [mode, setMode] = useState<'view' | 'edit' | 'remove'>('view');
  const [errors, setErrors] = useState<FormErrors>(noErrors);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const permissions = listOf(String(new FormData(event.currentTarget).get('permissions') ?? ''));
    try {
      await unwrap(api.POST('/api/projects/{projectId}/members', { params: { path: { projectId } }, body: { userId: member.userId, permissions } }));
      setErrors(noErrors);
      setMode('view');
      onChanged(`Permissions of ${name} changed`);
    } catch (error) {
      setErrors(formErrors(error, ['permissions']));
    }
  };

  const remove = async () => {
    try {
      await unwrap(api.DELETE('/api/projects/{projectId}/members/{userId}', { params: { path: { projectId, userId: member.userId } } }));
      onChanged(`${name} removed from the project`);
    } catch (error) {
      setErrors(formErrors(error, []));
      setMode('view');
    }
  };

  const owner = member.role === 'owner';
  return (
    <tr>
      <th scope="row">
        {name}
        {name !== member.userId && <small className="user-id"> {member.userId}</small>}
      </th>
      <td>{owner ? <span className="badge">Owner</span> : 'Member'}</td>
      <td>
        {mode === 'edit' ? (
          <form onSubmit={save} className="row-form" noValidate>
            <Field label={`Permissions of ${name}`} name="permissions" defaultValue={shownPermissions(projectId, member.permissions)} autoFocus error={errors.fields.permissions} />
            <button type="submit">Save</button>
            <button type="button" className="danger" onClick={() => setMode('view')}>Cancel</button>
          </form>
        ) : (
          (owner ? <span className="muted">every permission</span> : shownPermissions(projectId, member.permissions)) || <span className="muted">none</span>
        )}
        {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
      </td>
      <td>
        {owner ? (
          <span className="muted">The owner keeps every right</span>
        ) : mode === 'remove' ? (
          <>
            <span>Remove {name}?</span>{' '}
            <button type="button" className="danger" onClick={() => void remove()}>Confirm removal</button>
            <button type="button" onClick={() => setMode('view')}>Keep</button>
          </>
        ) : (
          mode === 'view' && (
            <>
              <button type="button" aria-label={`Change permissions of ${name}`} onClick={() => setMode('edit')}>
                Change permissions
              </button>
              <button type="button" className="danger" aria-label={`Remove ${name}`} onClick={() => setMode('remove')}>
                Remove
              </button>
            </>
          )
        )}
      </td>
    </tr>
  );
}

/** Who an invitation is for: the email address it was mailed to, else the invited user's name. */
const invitedLabel = (invitation: Invitation): string => ('email' in invitation ? invitation.email : invitation.userId);

function UserInvitationRow({ userId, ...props }: { userId: string; projectId: string; invitation: Invitation; onWithdrawn: () => void }) {
  return <ProjectInvitationRow name={useUserName(userId)} {...props} />;
}

function ProjectInvitationRow({ projectId, invitation, name, onWithdrawn }: { projectId: string; invitation: Invitation; name: string; onWithdrawn: () => void }) {
  const withdraw = () => unwrap(api.DELETE('/api/projects/{projectId}/invitations/{invitationId}', { params: { path: { projectId, invitationId: invitation.id } } }));
  return (
    <InvitationRow name={name} withdraw={withdraw} onWithdrawn={onWithdrawn}>
      <td>{shownPermissions(projectId, invitation.permissions) || <span className="muted">none</span>}</td>
      <td>
        <Day at={invitation.expiresAt} />
      </td>
    </InvitationRow>
  );
}

/**
 * The project's members with their permissions, pending invitations, and Add member. Adding
 * someone who is not a member yet invites them (they become a member when they accept); adding a
 * member replaces its permissions.
 */
export function Members({ projectId }: { projectId: string }) {
  const path = { projectId };
  const members = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/members', { params: { path } }))).items, projectId);
  // Only members who may manage members see invitations; the others get the server's refusal there.
  const invitations = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/invitations', { params: { path } }))).items, projectId);
  const [adding, setAdding] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [notice, setNotice] = useState<string>();

  const changed = (message: string) => {
    setNotice(message);
    members.reload();
    invitations.reload();
  };

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const member = String(form.get('member') ?? '').trim();
    const permissions = listOf(String(form.get('permissions') ?? ''));
    // An @ means an email address: it is mailed a link that any signed-in account may accept.
    const byEmail = member.includes('@');
    try {
      const call = api.POST('/api/projects/{projectId}/members', { params: { path }, body: byEmail ? { email: member, permissions } : { userId: member, permissions } });
      await unwrap(call);
      // 202: not a member yet, so an invitation; 200: a member whose permissions were replaced.
      const { response } = await call;
      setErrors(noErrors);
      setAdding(false);
      if (byEmail) changed(`Invited ${member}: a mail with a link to accept is on its way`);
      else changed(response.status === 202 ? `Invited ${member}: they become a member once they accept` : `Permissions of ${member} changed`);
    } catch (error) {
      const found = formErrors(error, ['userId', 'email', 'permissions']);
      const memberError = found.fields.userId ?? found.fields.email;
      setErrors(memberError ? { fields: { member: memberError } } : found);
    }
  };

  return (
    <main>
      <h1>Members</h1>
      <TrailLink projectId={projectId} typeId={MEMBERS_TYPE_ID}>Who added, changed and removed members: the audit trail</TrailLink>
      <button type="button" onClick={() => setAdding(true)}>Add member</button>
      {adding && (
        <form onSubmit={add} className="inline-form" noValidate aria-label="Add member">
          <Field label="Email or user id" name="member" autoFocus error={errors.fields.member} />
          <Field label="Permissions" name="permissions" placeholder="editors, viewers" error={errors.fields.permissions} />
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit">Save</button>
          <button type="button" className="danger" onClick={() => setAdding(false)}>Cancel</button>
        </form>
      )}
      {notice && <p role="status">{notice}</p>}
      <LoadError error={members.error} />
      <LabelledTable label="Members" headers={['Member', 'Role', 'Permissions', 'Change']}>
        {(members.value ?? []).map((member) => (
          <MemberRow key={`${member.userId}:${member.permissions.join(',')}`} projectId={projectId} member={member} onChanged={changed} />
        ))}
      </LabelledTable>

      <h2>Pending invitations</h2>
      <LoadError error={invitations.error} />
      {invitations.value && invitations.value.length > 0 && (
        <LabelledTable label="Pending invitations" headers={['Invited', 'Permissions', 'Lapses', 'Change']}>
          {invitations.value.map((invitation) => {
            const onWithdrawn = () => changed(`Invitation of ${invitedLabel(invitation)} withdrawn`);
            return 'email' in invitation ? (
              <ProjectInvitationRow key={invitation.id} projectId={projectId} invitation={invitation} name={invitation.email} onWithdrawn={onWithdrawn} />
            ) : (
              <UserInvitationRow key={invitation.id} userId={invitation.userId} projectId={projectId} invitation={invitation} onWithdrawn={onWithdrawn} />
            );
          })}
        </LabelledTable>
      )}
      {invitations.value?.length === 0 && <p className="muted">No pending invitation.</p>}
    </main>
  );
}
