import { useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import type { paths } from '../api/openapi';
import { LabelledTable } from '../components/labelled-table';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';

/** Rows per page of each admin table (the API allows up to 200). */
const PAGE_SIZE = 50;

function Pager({ label, page, total, onPage }: { label: string; page: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="toolbar">
      <span>
        {label}: {total} · page {page} of {pages}
      </span>
      <button type="button" aria-label={`Previous page of ${label}`} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button type="button" aria-label={`Next page of ${label}`} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </div>
  );
}

const when = (timestamp: number) => <time dateTime={new Date(timestamp).toISOString()}>{new Date(timestamp).toLocaleString()}</time>;

/**
 * When a project was deleted; until it is purged, `Restore` (platform owners pass every project's
 * delete rule: the way back for the projects of a deleted account). A refusal (the restore
 * period has ended) shows beside it.
 */
function DeletedCell({ project, onRestored }: { project: { id: string; name: string; deletedAt: number; purgedAt?: number }; onRestored: () => void }) {
  const [error, setError] = useState<unknown>();
  const restore = async () => {
    try {
      await unwrap(api.POST('/api/projects/{projectId}/restore', { params: { path: { projectId: project.id } } }));
      onRestored();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      {when(project.deletedAt)}
      {project.purgedAt !== undefined ? (
        <span className="muted"> (purged)</span>
      ) : (
        <>
          {' '}
          <button type="button" aria-label={`Restore ${project.name}`} onClick={() => void restore()}>
            Restore
          </button>
        </>
      )}
      <LoadError error={error} />
    </>
  );
}

type AdminUser = paths['/api/admin/users']['get']['responses'][200]['content']['application/json']['items'][number];

/** One user: whether it is a platform owner (switch it) and has two-step sign-in (turn it off for someone locked out). */
function UserRow({ user, onChanged }: { user: AdminUser; onChanged: () => void }) {
  const [error, setError] = useState<unknown>();
  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setError(undefined);
      onChanged();
    } catch (failure) {
      setError(failure);
    }
  };
  const path = { userId: user.id };
  const switchOwner = () => act(() => unwrap(api.PATCH('/api/admin/users/{userId}', { params: { path }, body: { platformOwner: !user.platformOwner } })));
  const twoFactorOff = () => act(() => unwrap(api.DELETE('/api/admin/users/{userId}/two-factor', { params: { path } })));
  const confirmEmail = () => act(() => unwrap(api.PATCH('/api/admin/users/{userId}', { params: { path }, body: { emailVerified: true } })));
  return (
    <tr>
      <th scope="row">{user.displayName}</th>
      <td>
        {user.email}
        {!user.emailVerified && <span className="muted"> (not confirmed)</span>}
      </td>
      <td>{user.id}</td>
      <td>{user.platformOwner ? 'yes' : 'no'}</td>
      <td>{user.twoFactorEnabled ? 'on' : 'off'}</td>
      <td>{when(user.createdAt)}</td>
      <td>
        <button type="button" aria-label={user.platformOwner ? `Remove ${user.displayName} as platform owner` : `Make ${user.displayName} platform owner`} onClick={() => void switchOwner()}>
          {user.platformOwner ? 'Remove owner' : 'Make owner'}
        </button>
        {!user.emailVerified && (
          <button type="button" aria-label={`Mark the email of ${user.displayName} confirmed`} onClick={() => void confirmEmail()}>
            Mark email confirmed
          </button>
        )}
        {user.twoFactorEnabled && (
          <button type="button" className="danger" aria-label={`Turn off two-step sign-in for ${user.displayName}`} onClick={() => void twoFactorOff()}>
            Turn off two-step
          </button>
        )}
        <LoadError error={error} />
      </td>
    </tr>
  );
}

/** Platform owners: every tenant, project and user (`/api/admin/tenants`, `/api/admin/projects`, `/api/admin/users`); others see the server's refusal. */
export function Admin() {
  const [tenantPage, setTenantPage] = useState(1);
  const [projectPage, setProjectPage] = useState(1);
  const [userPage, setUserPage] = useState(1);
  const tenants = useLoad(() => unwrap(api.GET('/api/admin/tenants', { params: { query: { page: tenantPage, limit: PAGE_SIZE } } })), `tenants/${tenantPage}`);
  const projects = useLoad(() => unwrap(api.GET('/api/admin/projects', { params: { query: { page: projectPage, limit: PAGE_SIZE } } })), `projects/${projectPage}`);
  const users = useLoad(() => unwrap(api.GET('/api/admin/users', { params: { query: { page: userPage, limit: PAGE_SIZE } } })), `users/${userPage}`);

  // Everyone but platform owners gets the same refusal from both lists: say it once.
  if (tenants.error instanceof ApiError && tenants.error.status === 403) {
    return (
      <main className="wide">
        <h1>Administration</h1>
        <LoadError error={tenants.error} />
      </main>
    );
  }
  return (
    <main className="wide">
      <h1>Administration</h1>
      <h2>Tenants</h2>
      <LoadError error={tenants.error} />
      {tenants.value && (
        <>
          <LabelledTable label="Tenants" headers={['Tenant', 'Id', 'Kind', 'Created by', 'Created']}>
            {tenants.value.items.map((tenant) => (
              <tr key={tenant.id}>
                <th scope="row">{tenant.name}</th>
                <td>{tenant.id}</td>
                <td>{tenant.personal ? 'personal' : 'shared'}</td>
                <td>{tenant.createdBy}</td>
                <td>{when(tenant.createdAt)}</td>
              </tr>
            ))}
          </LabelledTable>
          <Pager label="Tenants" page={tenantPage} total={tenants.value.total} onPage={setTenantPage} />
        </>
      )}
      <h2>Projects</h2>
      <LoadError error={projects.error} />
      {projects.value && (
        <>
          <LabelledTable label="All projects" headers={['Project', 'Id', 'Tenant', 'Owner', 'AI', 'Created', 'Deleted']}>
            {projects.value.items.map((project) => (
              <tr key={project.id}>
                <th scope="row">{project.name}</th>
                <td>{project.id}</td>
                <td>{project.tenantId ?? <span className="muted">none</span>}</td>
                <td>{project.ownerId}</td>
                <td>{project.aiEnabled ? 'on' : 'off'}</td>
                <td>{when(project.createdAt)}</td>
                <td>{project.deletedAt !== undefined && <DeletedCell project={{ ...project, deletedAt: project.deletedAt }} onRestored={projects.reload} />}</td>
              </tr>
            ))}
          </LabelledTable>
          <Pager label="Projects" page={projectPage} total={projects.value.total} onPage={setProjectPage} />
        </>
      )}
      <h2>Users</h2>
      <p className="muted">Turn off two-step sign-in only for someone you know who lost their app and recovery codes; they are told by mail.</p>
      <LoadError error={users.error} />
      {users.value && (
        <>
          <LabelledTable label="All users" headers={['User', 'Email', 'Id', 'Platform owner', 'Two-step', 'Created', 'Change']}>
            {users.value.items.map((user) => (
              <UserRow key={`${user.id}:${user.platformOwner}:${user.twoFactorEnabled}:${user.emailVerified}`} user={user} onChanged={users.reload} />
            ))}
          </LabelledTable>
          <Pager label="Users" page={userPage} total={users.value.total} onPage={setUserPage} />
        </>
      )}
    </main>
  );
}
