import { useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
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

/** Platform owners: every tenant and every project (`/api/admin/tenants`, `/api/admin/projects`); others see the server's refusal. */
export function Admin() {
  const [tenantPage, setTenantPage] = useState(1);
  const [projectPage, setProjectPage] = useState(1);
  const tenants = useLoad(() => unwrap(api.GET('/api/admin/tenants', { params: { query: { page: tenantPage, limit: PAGE_SIZE } } })), `tenants/${tenantPage}`);
  const projects = useLoad(() => unwrap(api.GET('/api/admin/projects', { params: { query: { page: projectPage, limit: PAGE_SIZE } } })), `projects/${projectPage}`);

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
    </main>
  );
}
