import { api, unwrap } from '../api/client';
import { loadApplications } from '../applications/load-applications';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { visitorTypesOf } from './visitor-types';

/** The most visitors one table loads (10 pages of the data route). */
const VISITOR_LIMIT = 1_000;

interface VisitorRow {
  id: string;
  name?: unknown;
  createdAt: number;
  latestEventType?: unknown;
  latestEventAt?: unknown;
  deleteOn?: unknown;
}

const when = (value: unknown): string => (typeof value === 'number' ? new Date(value).toLocaleString() : '');

async function loadVisitors(projectId: string, typeId: string): Promise<{ rows: VisitorRow[]; more: boolean }> {
  const rows: VisitorRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(api.GET('/api/projects/{projectId}/types/{typeId}/data', { params: { path: { projectId, typeId }, query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
    for (const item of page.items) if (item.deletedAt === undefined) rows.push(item as VisitorRow);
    cursor = page.cursor;
  } while (cursor && rows.length < VISITOR_LIMIT);
  return { rows: rows.sort((a, b) => b.createdAt - a.createdAt), more: cursor !== undefined };
}

function VisitorTable({ projectId, typeId }: { projectId: string; typeId: string }) {
  const visitors = useLoad(() => loadVisitors(projectId, typeId), `${projectId}/${typeId}`);
  return (
    <section aria-labelledby={`visitors-${typeId}`}>
      <h2 id={`visitors-${typeId}`}>Visitors of {typeId}</h2>
      <LoadError error={visitors.error} />
      <table aria-label={`Visitors of ${typeId}`}>
        <thead>
          <tr>
            <th scope="col">Visitor</th>
            <th scope="col">Checked in first</th>
            <th scope="col">Latest event</th>
            <th scope="col">Latest event at</th>
            <th scope="col">Erased on</th>
          </tr>
        </thead>
        <tbody>
          {(visitors.value?.rows ?? []).map((visitor) => (
            <tr key={visitor.id}>
              <td>{typeof visitor.name === 'string' ? visitor.name : visitor.id}</td>
              <td>{when(visitor.createdAt)}</td>
              <td>{typeof visitor.latestEventType === 'string' ? visitor.latestEventType : ''}</td>
              <td>{when(visitor.latestEventAt)}</td>
              <td>{when(visitor.deleteOn)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {visitors.value?.rows.length === 0 && <p>No visitor yet.</p>}
      {visitors.value?.more && <p>The newest of the first {VISITOR_LIMIT} visitors are shown.</p>}
    </section>
  );
}

/** One table per visitor type the project's CheckIn widgets name. */
export default function VisitorTables({ projectId }: { projectId: string }) {
  const types = useLoad(async () => visitorTypesOf(await loadApplications(projectId)), projectId);
  return (
    <>
      <LoadError error={types.error} />
      {types.value?.length === 0 && <p>No application has a CheckIn widget that names a visitor type.</p>}
      {(types.value ?? []).map((typeId) => (
        <VisitorTable key={typeId} projectId={projectId} typeId={typeId} />
      ))}
    </>
  );
}
