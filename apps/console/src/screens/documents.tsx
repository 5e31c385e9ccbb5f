import type { LocalDocument, SyncClient } from '@platform/sync-client';
import { useCollection, useConflicts, usePendingCount, useRealtimeStatus, useSyncVersion } from '@platform/sync-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { api, unwrap } from '../api/client';
import { DocumentEditor, SERVER_FIELDS } from '../components/document-editor';
import { noErrors, takenBySdk, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { syncLabel } from '../components/sync-label';
import { useLoad } from '../components/use-load';
import { useTypeSchema } from '../components/use-type-schema';
import { Link } from '../router';
import { useSession } from '../session';
import { useTypeClient } from '../sync/use-type-client';
import { documentPath, projectPath, typePath } from '../paths';
import { useProject } from '../project-context';
import { AddSampleDocuments } from './add-sample-documents';
import { FillFromText } from './fill-from-text';

const ROW_HEIGHT = 36;
/** Tombstones come from the pull route, a page at a time, up to this many. */
const TOMBSTONE_LIMIT = 5_000;

interface Row {
  id: string;
  document: Record<string, unknown>;
  deleted: boolean;
}

const cell = (value: unknown): string => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The columns: the schema's properties, else the fields of the first documents. */
function columnsOf(schema: unknown, documents: readonly LocalDocument[]): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const names = new Set(properties ? Object.keys(properties) : []);
  if (names.size === 0) for (const document of documents.slice(0, 50)) for (const key of Object.keys(document)) if (!SERVER_FIELDS.has(key)) names.add(key);
  return [...names].slice(0, 6);
}

function useTombstones(projectId: string, typeId: string, shown: boolean, version: number) {
  return useLoad(async () => {
    if (!shown) return [];
    const found: Row[] = [];
    let cursor: string | undefined;
    do {
      const page = await unwrap(api.GET('/api/projects/{projectId}/types/{typeId}/data', { params: { path: { projectId, typeId }, query: { updatedAt: 1, limit: 1000, ...(cursor ? { cursor } : {}) } } }));
      for (const item of page.items) if (item.deletedAt !== undefined) found.push({ id: item.id, document: item, deleted: true });
      cursor = page.cursor;
    } while (cursor && found.length < TOMBSTONE_LIMIT);
    return found;
  }, `${projectId}/${typeId}/${shown}/${version}`);
}

function Grid({ client, projectId, typeId, rows, columns }: { client: SyncClient; projectId: string; typeId: string; rows: Row[]; columns: string[] }) {
  useSyncVersion(client);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  // repeat(0, ...) is invalid CSS, so the field columns are listed one by one.
  const template = ['minmax(14rem, 1.4fr)', ...columns.map(() => 'minmax(8rem, 1fr)'), '6rem', '8rem'].join(' ');
  return (
    <div role="table" aria-label={`Documents of ${typeId}`} aria-rowcount={rows.length + 1} className="grid">
      <div role="rowgroup">
        <div role="row" className="grid-row grid-head" style={{ gridTemplateColumns: template }} aria-rowindex={1}>
          <span role="columnheader">id</span>
          {columns.map((column) => (
            <span role="columnheader" key={column}>
              {column}
            </span>
          ))}
          <span role="columnheader">revision</span>
          <span role="columnheader">sync</span>
        </div>
      </div>
      <div role="rowgroup" ref={scroller} className="grid-body">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const state = row.deleted ? 'deleted' : (client.state(typeId, row.id) ?? 'synced');
            return (
              <div
                role="row"
                key={row.id}
                aria-rowindex={item.index + 2}
                className={`grid-row ${row.deleted ? 'tombstone' : ''}`}
                data-sync-state={state}
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                <span role="cell">
                  <Link to={documentPath(projectId, typeId, row.id)}>{row.id}</Link>
                </span>
                {columns.map((column) => (
                  <span role="cell" key={column} dir="auto">
                    {cell(row.document[column])}
                  </span>
                ))}
                <span role="cell">{cell(row.document.revision)}</span>
                <span role="cell" className={`sync-${state}`}>
                  {syncLabel(state, client.conflict(typeId, row.id))}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function Documents({ client, projectId, typeId }: { client: SyncClient; projectId: string; typeId: string }) {
  const documents = useCollection(client, typeId);
  const pending = usePendingCount(client, typeId);
  const conflicts = useConflicts(client, typeId);
  const realtime = useRealtimeStatus(client);
  const version = useSyncVersion(client);
  const { schema } = useTypeSchema(projectId, typeId);
  const [showDeleted, setShowDeleted] = useState(false);
  const tombstones = useTombstones(projectId, typeId, showDeleted, showDeleted ? version : 0);
  const [filter, setFilter] = useState({ field: '', value: '' });
  const [creating, setCreating] = useState(false);
  const [addingSamples, setAddingSamples] = useState(false);
  /** What the new document's form starts from: empty, or what Fill from text read. */
  const [draft, setDraft] = useState<Record<string, unknown>>({});
  const project = useProject();
  const [status, setStatus] = useState('');
  const [errors, setErrors] = useState<FormErrors>(noErrors);

  const columns = useMemo(() => columnsOf(schema, documents), [schema, documents]);
  const rows = useMemo(() => {
    const all: Row[] = documents.map((document) => ({ id: document.id, document, deleted: false }));
    if (showDeleted) all.push(...(tombstones.value ?? []));
    const wanted = filter.value.trim();
    const kept = filter.field && wanted ? all.filter((row) => cell(row.document[filter.field]).includes(wanted)) : all;
    return kept.sort((a, b) => a.id.localeCompare(b.id));
  }, [documents, tombstones.value, showDeleted, filter]);

  const create = async (fields: Record<string, unknown>) => {
    if (await takenBySdk(() => client.collection(typeId).insert(fields), setErrors)) {
      setCreating(false);
      setDraft({});
    }
  };

  return (
    <main className="wide">
      <p className="crumbs">
        <Link to={projectPath(projectId)}>Types</Link> / {typeId}
      </p>
      <div className="heading-with-status">
        <h1>Documents of {typeId}</h1>
        <span className={`realtime realtime-${realtime}`} title="Whether changes from others appear as they happen">{realtime}</span>
      </div>
      <div className="toolbar">
        <button type="button" onClick={() => setCreating(true)}>New document</button>
        <button type="button" onClick={() => setAddingSamples(true)}>Add sample documents</button>
        <Link to={`${typePath(projectId, typeId)}/access`}>Batch access</Link>
        <span className="badge" role="status" aria-label="Pending changes">
          {pending} pending
        </span>
        {conflicts.length > 0 && <Link to={documentPath(projectId, typeId, conflicts[0]!.id)}>{conflicts.length} in conflict</Link>}
        <label>
          <input type="checkbox" checked={showDeleted} onChange={(event) => setShowDeleted(event.target.checked)} /> Show deleted
        </label>
        <label>
          Filter field{' '}
          <select value={filter.field} onChange={(event) => setFilter({ ...filter, field: event.target.value })}>
            <option value="">(none)</option>
            {['id', ...columns].map((column) => (
              <option key={column}>{column}</option>
            ))}
          </select>
        </label>
        <label>
          Filter value <input value={filter.value} onChange={(event) => setFilter({ ...filter, value: event.target.value })} />
        </label>
        <span aria-live="polite">{rows.length} documents</span>
      </div>
      {addingSamples && (
        <AddSampleDocuments
          projectId={projectId}
          typeId={typeId}
          onDone={(done) => {
            setAddingSamples(false);
            setStatus(done);
          }}
        />
      )}
      {status && <p role="status">{status}</p>}
      {creating && (
        <section aria-label="New document" className="inline-form">
          {project.value?.aiEnabled && <FillFromText projectId={projectId} typeId={typeId} onFilled={setDraft} />}
          <DocumentEditor key={JSON.stringify(draft)} schema={schema} initial={draft} errors={errors} onSave={(fields) => void create(fields)} onInvalid={setErrors} />
        </section>
      )}
      <LoadError error={tombstones.error} />
      <Grid client={client} projectId={projectId} typeId={typeId} rows={rows} columns={columns} />
    </main>
  );
}

export function ProjectDocuments({ projectId, typeId }: { projectId: string; typeId: string }) {
  const { user } = useSession();
  const { client, error } = useTypeClient(user!.id, projectId, typeId);
  if (!client) return error ? <LoadError error={error} /> : <p className="loading">Opening {typeId}…</p>;
  return (
    <>
      <LoadError error={error} />
      <Documents client={client} projectId={projectId} typeId={typeId} />
    </>
  );
}
