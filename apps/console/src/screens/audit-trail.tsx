import { useEffect, useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { changeDetailInWords, changeInWords } from '../audit/change-words';
import { itemLink, MEMBERS_TYPE_ID } from '../audit/item-link';
import { TRAIL_FIELDS, TrailFilterForm } from '../audit/trail-filter-form';
import { filtersFromSearch, filtersToSearch, pageCount, trailExportPath, trailQuery, type TrailFilters } from '../audit/trail-filters';
import { counted } from '../components/counted';
import { formErrors, noErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { Pager } from '../components/pager';
import { useUserName } from '../components/user-name';
import { useLoad } from '../components/use-load';
import { Link, navigate } from '../router';
import { projectPath } from '../paths';

/**
 * New items are polled for: the audit service records a change after the data service announces
 * it, so the realtime channel's notification can come before the item exists (see docs/console.md).
 */
const POLL_MS = 2_000;

/** An entity's revision names its change; a member's changes (always revision 0) are told apart by time and kind. */
const itemKey = (item: { entityTypeId: string; entityId: string; revision: number; timestamp: number; changeDescription: string }) =>
  item.entityTypeId === MEMBERS_TYPE_ID ? `${item.entityTypeId}/${item.entityId}/${item.timestamp}/${item.changeDescription}` : `${item.entityTypeId}/${item.entityId}/${item.revision}`;

/** A user's display name as the caller may see it (the id until it is known, or when hidden). */
function Named({ userId }: { userId: string }) {
  return <>{useUserName(userId)}</>;
}

/** A change of the project's owner: who owns it now and who did. */
function OwnerChange({ ownerId, previousOwnerId }: { ownerId: string; previousOwnerId?: string }) {
  return (
    <small className="change-detail">
      owner: <Named userId={ownerId} />
      {previousOwnerId && (
        <>
          {' '}
          (was: <Named userId={previousOwnerId} />)
        </>
      )}
    </small>
  );
}

/** What a membership, domain or project change gave, took, moved or passed on, under its words. */
function ChangeDetail({ projectId, item }: { projectId: string; item: Parameters<typeof changeDetailInWords>[1] & { ownerId?: string; previousOwnerId?: string } }) {
  if (item.ownerId) return <OwnerChange ownerId={item.ownerId} {...(item.previousOwnerId ? { previousOwnerId: item.previousOwnerId } : {})} />;
  const words = changeDetailInWords(projectId, item);
  return words ? <small className="change-detail">{words}</small> : null;
}

export function AuditTrail({ projectId }: { projectId: string }) {
  const [filters, setFilters] = useState<TrailFilters>(() => filtersFromSearch(window.location.search));
  const search = filtersToSearch(filters);
  const trail = useLoad(() => unwrap(api.GET('/api/projects/{projectId}/audit-trail', { params: { path: { projectId }, query: trailQuery(filters) } })), `${projectId}${search}`);
  const { reload } = trail;

  // The URL keeps the filters, so a filtered trail can be bookmarked and shared.
  useEffect(() => navigate(`${projectPath(projectId)}/audit-trail${search}`, { replace: true }), [projectId, search]);
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [reload]);

  // Refused (a former member, a project that is gone): the server's message alone; polling brings the trail back if access returns.
  if (trail.error instanceof ApiError && (trail.error.status === 403 || trail.error.status === 404)) {
    return (
      <main className="wide">
        <h1>Audit trail</h1>
        <LoadError error={trail.error} />
      </main>
    );
  }
  const errors = trail.error ? formErrors(trail.error, TRAIL_FIELDS) : noErrors;
  const page = trail.value;
  const pages = page ? pageCount(page.total, page.limit) : 1;
  return (
    <main className="wide">
      <h1>Audit trail</h1>
      <TrailFilterForm projectId={projectId} filters={filters} errors={errors} onChange={setFilters} />
      {errors.form && <LoadError error={trail.error} />}
      {!page && !trail.error && <p className="loading">Loading the audit trail…</p>}
      {page && (
        <>
          <p className="toolbar" role="status">
            <span className="badge">{counted(page.total, 'change')}</span>
            <span>
              Page {page.page} of {pages}
            </span>
            <span className="realtime realtime-live">live: new changes appear within {POLL_MS / 1000} s</span>
            {/* The session cookie goes with it: same origin. */}
            <a href={trailExportPath(projectId, filters)} download>
              Download CSV
            </a>
          </p>
          <table aria-label="Audit trail">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">User</th>
                <th scope="col">Type</th>
                <th scope="col">Change</th>
                <th scope="col">Entity</th>
                <th scope="col">Revision</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((item) => (
                <tr key={itemKey(item)}>
                  <td>
                    <time dateTime={new Date(item.timestamp).toISOString()}>{new Date(item.timestamp).toLocaleString()}</time>
                  </td>
                  <td>{item.userDisplayName}</td>
                  <td>{item.entityTypeName}</td>
                  <td>
                    {changeInWords(item.changeDescription)}
                    <ChangeDetail projectId={projectId} item={item} />
                  </td>
                  <td dir="auto">
                    <Link to={itemLink(projectId, item)}>{item.entityTitle}</Link>
                  </td>
                  <td>{item.entityTypeId === MEMBERS_TYPE_ID ? '' : item.revision}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.items.length === 0 && <p>No change matches these filters.</p>}
          <nav aria-label="Pages" className="toolbar">
            <Pager page={page.page} pages={pages} onPage={(next) => setFilters({ ...filters, page: next })} previousLabel="Previous page" nextLabel="Next page" />
          </nav>
        </>
      )}
    </main>
  );
}
