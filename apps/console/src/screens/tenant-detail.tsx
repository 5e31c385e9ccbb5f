import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { Field } from '../components/field';
import { InvitationRow } from '../components/invitation-row';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LabelledTable } from '../components/labelled-table';
import { LoadError } from '../components/load-error';
import { ProjectCards } from '../components/project-cards';
import { SelectField } from '../components/select-field';
import { SubmitForm } from '../components/submit-form';
import { useLoad } from '../components/use-load';
import { useUserName } from '../components/user-name';
import { navigate } from '../router';
import { useSession } from '../session';
import { openProject } from '../open-project';
import { DeleteTenant } from './delete-tenant';

type TenantMember = paths['/api/tenants/{tenantId}/members']['get']['responses'][200]['content']['application/json']['items'][number];
type TenantInvitation = paths['/api/tenants/{tenantId}/invitations']['get']['responses'][200]['content']['application/json']['items'][number];
type Role = TenantMember['role'];

const otherRole = (role: Role): Role => (role === 'admin' ? 'member' : 'admin');

/** One member: an admin may change its role or remove it (after a second click); anyone may leave. */
function MemberRow({ tenantId, member, admin, self, onChanged }: { tenantId: string; member: TenantMember; admin: boolean; self: boolean; onChanged: (message: string, left?: boolean) => void }) {
  const name = useUserName(member.userId);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>();
  const path = { tenantId, userId: member.userId };

  const act = async (work: () => Promise<unknown>, message: string, left = false) => {
    try {
      await work();
      setError(undefined);
      onChanged(message, left);
    } catch (failure) {
      setError(failure);
    }
    setConfirming(false);
  };
  const setRole = () => act(() => unwrap(api.PUT('/api/tenants/{tenantId}/members/{userId}', { params: { path }, body: { role: otherRole(member.role) } })), `${name} is now ${otherRole(member.role)}`);
  const remove = () => act(() => unwrap(api.DELETE('/api/tenants/{tenantId}/members/{userId}', { params: { path } })), self ? 'You left the tenant' : `${name} removed`, self);

  return (
    <tr>
      <th scope="row">
        {name}
        {name !== member.userId && <small className="user-id"> {member.userId}</small>}
      </th>
      <td>{member.role}</td>
      <td>
        {confirming ? (
          <>
            <span>{self ? 'Leave the tenant and its projects?' : `Remove ${name} from the tenant and its projects?`}</span>{' '}
            <button type="button" className="danger" onClick={() => void remove()}>
              {self ? 'Confirm leaving' : 'Confirm removal'}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <>
            {admin && (
              <button type="button" aria-label={`Make ${name} ${otherRole(member.role)}`} onClick={() => void setRole()}>
                Make {otherRole(member.role)}
              </button>
            )}
            {(admin || self) && (
              <button type="button" className="danger" aria-label={self ? 'Leave the tenant' : `Remove ${name}`} onClick={() => setConfirming(true)}>
                {self ? 'Leave' : 'Remove'}
              </button>
            )}
          </>
        )}
        <LoadError error={error} />
      </td>
    </tr>
  );
}

function TenantInvitationRow({ tenantId, invitation, onWithdrawn }: { tenantId: string; invitation: TenantInvitation; onWithdrawn: (name: string) => void }) {
  const name = useUserName(invitation.userId);
  const withdraw = () => unwrap(api.DELETE('/api/tenants/{tenantId}/invitations/{invitationId}', { params: { path: { tenantId, invitationId: invitation.id } } }));
  return (
    <InvitationRow name={name} withdraw={withdraw} onWithdrawn={() => onWithdrawn(name)}>
      <td>{invitation.role}</td>
    </InvitationRow>
  );
}

/**
 * A tenant: its name (admins rename it), members (admins invite by user id, change roles and
 * remove; anyone may leave), pending invitations (admins) and projects, with `New project` in it;
 * admins of a shared tenant may delete it.
 * A personal tenant has only its user: no member controls.
 */
export function TenantDetail({ tenantId }: { tenantId: string }) {
  const { user, refresh } = useSession();
  const path = { tenantId };
  const tenant = useLoad(() => unwrap(api.GET('/api/tenants/{tenantId}', { params: { path } })), tenantId);
  const members = useLoad(async () => (await unwrap(api.GET('/api/tenants/{tenantId}/members', { params: { path } }))).items, tenantId);
  const admin = tenant.value?.role === 'admin';
  const invitations = useLoad(async () => (admin ? (await unwrap(api.GET('/api/tenants/{tenantId}/invitations', { params: { path } }))).items : []), `${tenantId}:${admin}`);
  const projects = useLoad(async () => (await unwrap(api.GET('/api/tenants/{tenantId}/projects', { params: { path } }))).items, tenantId);
  const [notice, setNotice] = useState<string>();
  const [renameErrors, setRenameErrors] = useState<FormErrors>(noErrors);
  const [inviteErrors, setInviteErrors] = useState<FormErrors>(noErrors);
  const [projectErrors, setProjectErrors] = useState<FormErrors>(noErrors);

  const changed = (message: string, left = false) => {
    if (left) return navigate('/tenants');
    setNotice(message);
    members.reload();
    invitations.reload();
    projects.reload();
  };

  const rename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      const renamed = await unwrap(api.PATCH('/api/tenants/{tenantId}', { params: { path }, body: { name: String(new FormData(event.currentTarget).get('name')) } }));
      await tenant.reload();
      setRenameErrors(noErrors);
      setNotice(`Renamed to ${renamed.name}`);
    } catch (error) {
      setRenameErrors(formErrors(error, ['name']));
    }
  };

  const invite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const userId = String(fields.get('userId')).trim();
    try {
      const call = api.PUT('/api/tenants/{tenantId}/members/{userId}', { params: { path: { tenantId, userId } }, body: { role: String(fields.get('role')) as Role } });
      await unwrap(call);
      const { response } = await call;
      setInviteErrors(noErrors);
      form.reset();
      changed(response.status === 202 ? `Invited ${userId}: they become a member once they accept` : `Role of ${userId} changed`);
    } catch (error) {
      setInviteErrors(formErrors(error, ['userId', 'role']));
    }
  };

  const createProject = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      const project = await unwrap(api.POST('/api/projects', { body: { name: String(new FormData(event.currentTarget).get('name')), tenantId } }));
      setProjectErrors(noErrors);
      await openProject(project.id, refresh);
    } catch (error) {
      setProjectErrors(formErrors(error, ['name']));
    }
  };

  if (tenant.error) return <main><h1>Tenant</h1><LoadError error={tenant.error} /></main>;
  if (!tenant.value) return null;
  const personal = tenant.value.personal;
  return (
    <main>
      <h1>
        {tenant.value.name}
        {personal && <span className="badge">Personal</span>}
      </h1>
      {notice && <p role="status">{notice}</p>}
      {admin && (
        <section aria-label="Name" className="inline-form">
          <SubmitForm label="Rename tenant" className="row-form" submitLabel="Rename" formError={renameErrors.form} onSubmit={rename}>
            <Field label="Tenant name" name="name" defaultValue={tenant.value.name} key={tenant.value.name} error={renameErrors.fields.name} />
          </SubmitForm>
        </section>
      )}

      <h2>Members</h2>
      <LoadError error={members.error} />
      <LabelledTable label="Tenant members" headers={['Member', 'Role', 'Change']}>
        {(members.value ?? []).map((member) => (
          <MemberRow key={`${member.userId}:${member.role}`} tenantId={tenantId} member={member} admin={admin && !personal} self={member.userId === user?.id} onChanged={changed} />
        ))}
      </LabelledTable>
      {personal && <p className="muted">Your personal tenant has only you; make a tenant of its own for a team.</p>}
      {admin && !personal && (
        <>
          <SubmitForm label="Invite to the tenant" className="inline-form row-form" submitLabel="Invite" formError={inviteErrors.form} onSubmit={invite}>
            <Field label="User id" name="userId" placeholder="on their Account screen" error={inviteErrors.fields.userId} />
            <SelectField label="Role" name="role" defaultValue="member" error={inviteErrors.fields.role}>
              <option value="member">member</option>
              <option value="admin">admin</option>
            </SelectField>
          </SubmitForm>
          <h2>Pending invitations</h2>
          <LoadError error={invitations.error} />
          {invitations.value?.length ? (
            <LabelledTable label="Pending tenant invitations" headers={['Invited', 'Role', 'Change']}>
              {invitations.value.map((invitation) => (
                <TenantInvitationRow key={invitation.id} tenantId={tenantId} invitation={invitation} onWithdrawn={(name) => changed(`Invitation of ${name} withdrawn`)} />
              ))}
            </LabelledTable>
          ) : (
            <p className="muted">No pending invitation.</p>
          )}
        </>
      )}

      <h2>Projects</h2>
      <p className="muted">{admin ? 'Every project of the tenant: its admins manage them all.' : 'The projects of the tenant you are a member of.'}</p>
      <LoadError error={projects.error} />
      <ProjectCards label="Tenant projects" projects={projects.value ?? []} />
      {projects.value?.length === 0 && <p className="muted">No project in this tenant yet.</p>}
      <SubmitForm label="New project in the tenant" className="inline-form row-form" submitLabel="Create project" formError={projectErrors.form} onSubmit={createProject}>
        <Field label="Project name" name="name" error={projectErrors.fields.name} />
      </SubmitForm>
      {admin && !personal && <DeleteTenant tenantId={tenantId} name={tenant.value.name} />}
    </main>
  );
}
