import type { FieldChoice, FieldConflict, LocalDocument, SyncClient, SyncConflict } from '@platform/sync-client';
import { useConflicts, useDocument, useSyncState } from '@platform/sync-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { AccessEditor } from '../components/access-editor';
import { ConflictView } from '../components/conflict-view';
import { DocumentEditor, editableFields, formFieldsOf } from '../components/document-editor';
import { noErrors, refusalErrors, takenBySdk, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { useTypeSchema } from '../components/use-type-schema';
import { syncLabel } from '../components/sync-label';
import { useUserName } from '../components/user-name';
import { diffStates, restoringModifier, type Modifier } from '../history/state-diff';
import { linkedRevision } from '../history/linked-revision';
import { useChangePages } from '../history/use-change-pages';
import { useRevisionState } from '../history/use-revision-state';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { useTypeClient } from '../sync/use-type-client';
import { documentPath, projectPath, typePath } from '../paths';
import { RunOnDocument } from './actions/run-on-document';

const show = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

function Author({ userId }: { userId: string }) {
  return <span className="author">{useUserName(userId)}</span>;
}

function AccessSummary({ access }: { access: unknown }) {
  const rules = (access ?? {}) as Record<string, { permission?: string; userIds?: string[] } | undefined>;
  return (
    <dl className="access" aria-label="Access">
      {(['read', 'update', 'delete'] as const).map((operation) => {
        const rule = rules[operation];
        const parts = [rule?.permission && `permission ${rule.permission}`, rule?.userIds?.length && `users ${rule.userIds.join(', ')}`].filter(Boolean);
        return (
          <div key={operation}>
            <dt>{operation}</dt>
            <dd>{parts.length ? parts.join('; ') : 'project members'}</dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * A document only this browser has: its fields in the editor (the server's refusal beside the field
 * it names; saving a fix sends it again), and why the server has not taken it, with the ways out.
 */
function LocalOnly({ client, projectId, typeId, document, conflict }: { client: SyncClient; projectId: string; typeId: string; document: LocalDocument; conflict: SyncConflict | undefined }) {
  const collection = client.collection(typeId);
  const back = () => navigate(typePath(projectId, typeId));
  const { schema } = useTypeSchema(projectId, typeId);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const save = (fields: Record<string, unknown>) => void takenBySdk(() => collection.update(document.id, changedFields(document, fields)), setErrors);
  return (
    <main className="wide">
      <h1>Document {document.id}</h1>
      <p>Not on the server yet: only this browser has it.</p>
      {conflict?.reason === 'rejected' && (
        <section className="conflict" aria-label="Conflict">
          <p role="alert">The server refused this document: {conflict.error?.message}</p>
          <button type="button" onClick={() => void collection.keepMine(document.id)}>Keep mine</button>
          <button type="button" className="danger" onClick={() => void collection.remove(document.id).then(back)}>Delete</button>
        </section>
      )}
      <DocumentEditor key={conflict?.at ?? 'queued'} schema={schema} initial={document} errors={errors === noErrors ? refusalErrors(conflict, formFieldsOf(schema)?.map(({ name }) => name)) : errors} onSave={save} onInvalid={setErrors} />
    </main>
  );
}

/** Only what the editor changed, so the change records just that (undefined removes a field). */
function changedFields(document: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const current = editableFields(document);
  const update: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (JSON.stringify(current[key]) !== JSON.stringify(value)) update[key] = value;
  for (const key of Object.keys(current)) if (!(key in fields)) update[key] = undefined;
  return update;
}

/** The server's 409 for a restore, and what the restore wanted to write. */
interface RestoreConflict {
  fields: FieldConflict[];
  currentRevision: number;
  modifier: Modifier;
}

function Detail({ client, projectId, typeId, id }: { client: SyncClient; projectId: string; typeId: string; id: string }) {
  const live = useDocument(client, typeId, id);
  const state = useSyncState(client, typeId, id);
  const conflict = useConflicts(client, typeId).find((entry) => entry.id === id)?.conflict;
  const path = { projectId, typeId, id };
  // The document without its history: the history is read a page at a time, states per revision.
  const loaded = useLoad(() => unwrap(api.GET('/api/projects/{projectId}/types/{typeId}/data/{id}', { params: { path } })), `${projectId}/${typeId}/${id}`);
  const { reload } = loaded;
  // A new revision in the local copy (a pull, a push) means a new change in the history.
  useEffect(() => {
    void reload();
  }, [reload, live?.revision]);
  const { schema } = useTypeSchema(projectId, typeId);
  const revision = loaded.value?.revision ?? 0;
  // A link to one revision (`?revision=N`, from the audit trail) opens the history with it selected and in view.
  const [linked] = useState(linkedRevision);
  const history = useChangePages(path, loaded.value?.revision, linked);
  const [selected, setSelected] = useState<number | undefined>(linked);
  const scrollIntoView = useCallback((item: HTMLLIElement | null) => item?.scrollIntoView({ block: 'center' }), []);
  // From the audit trail, the diff shows what the linked change did.
  const [compare, setCompare] = useState<{ from: number; to: number } | undefined>(linked === undefined ? undefined : { from: Math.max(0, linked - 1), to: linked });
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [restoreConflict, setRestoreConflict] = useState<RestoreConflict>();
  const [notice, setNotice] = useState<string>();

  const at = selected !== undefined && selected <= revision ? selected : revision;
  const stateAtSelected = useRevisionState(path, loaded.value ? at : undefined);
  const selectedState = stateAtSelected.state;
  const comparison = compare ?? { from: Math.max(0, revision - 1), to: revision };
  const compareFrom = useRevisionState(path, loaded.value ? comparison.from : undefined).state;
  const compareTo = useRevisionState(path, loaded.value ? comparison.to : undefined).state;
  const differences = useMemo(() => (compareFrom && compareTo ? diffStates(compareFrom, compareTo) : undefined), [compareFrom, compareTo]);
  // Revisions are typed, not picked from a list: two lists of 10,000 options made every render slow.
  const revisionOf = (typed: string) => Math.min(revision, Math.max(0, Math.trunc(Number(typed)) || 0));

  // "Saved" said the browser took the change; once the server refuses it or meets a conflict, the conflict's own words take over.
  useEffect(() => {
    if (conflict) setNotice(undefined);
  }, [conflict]);

  const save = async (fields: Record<string, unknown>) => {
    if (await takenBySdk(() => client.collection(typeId).update(id, changedFields(live ?? {}, fields)), setErrors)) setNotice('Saved');
  };

  const remove = async () => {
    await client.collection(typeId).remove(id);
    navigate(typePath(projectId, typeId));
  };

  // Kept as a new document: its page is where the person's version now lives.
  const keepMineAsNew = async () => {
    const kept = await client.collection(typeId).keepMine(id);
    navigate(documentPath(projectId, typeId, kept));
  };

  const patch = async (modifier: Modifier, baseRevision: number) => {
    try {
      await unwrap(api.PATCH('/api/projects/{projectId}/types/{typeId}/data/{id}', { params: { path }, body: { modifier, baseRevision } }));
      await client.pull(typeId);
      await loaded.reload();
      setRestoreConflict(undefined);
      setNotice(`Restored revision ${at} as a new change`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const details = error.details as { fields?: FieldConflict[]; currentRevision?: number };
        setRestoreConflict({ fields: details.fields ?? [], currentRevision: details.currentRevision ?? revision, modifier });
      } else setErrors({ fields: {}, form: error instanceof Error ? error.message : String(error) });
    }
  };

  const restore = (target: Record<string, unknown>) => {
    const current = editableFields(loaded.value ?? {});
    void patch(restoringModifier(current, target), revision);
  };

  const resolveRestore = (choices: Record<string, FieldChoice>) => {
    if (!restoreConflict) return;
    const kept = (operand: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(operand ?? {}).filter(([key]) => (choices[key] ?? 'mine') === 'mine'));
    const modifier: Modifier = { $set: kept(restoreConflict.modifier.$set), $unset: kept(restoreConflict.modifier.$unset) };
    void patch(modifier, restoreConflict.currentRevision);
  };

  if (!loaded.value) {
    // Never stored (a create still queued, or refused): the local copy and its conflict are all there is.
    if (live && loaded.error instanceof ApiError && loaded.error.status === 404) return <LocalOnly client={client} projectId={projectId} typeId={typeId} document={live} conflict={conflict} />;
    return loaded.error ? <LoadError error={loaded.error} /> : <p className="loading">Loading {id}…</p>;
  }

  return (
    <main className="wide">
      <p className="crumbs">
        <Link to={projectPath(projectId)}>Types</Link> / <Link to={typePath(projectId, typeId)}>{typeId}</Link> / {id}
      </p>
      <h1>Document {id}</h1>
      <p>
        Revision <strong data-testid="revision">{revision}</strong> · sync <span className={`sync-${state ?? 'synced'}`}>{state ? syncLabel(state, conflict) : loaded.value.deletedAt ? 'deleted' : 'synced'}</span>
        {loaded.value.deletedAt !== undefined && ' · deleted'}
      </p>
      {notice && <p role="status">{notice}</p>}
      <LoadError error={loaded.error} />
      <AccessSummary access={loaded.value.access} />
      <AccessEditor projectId={projectId} typeId={typeId} id={id} access={loaded.value.access} revision={revision} onSaved={() => client.pull(typeId).then(reload, reload)} />

      {conflict && conflict.reason === 'revision' && (
        <ConflictView
          fields={conflict.fields}
          onAcceptTheirs={() => void client.collection(typeId).acceptTheirs(id)}
          onKeepMine={() => void client.collection(typeId).keepMine(id)}
          onResolve={(choices) => void client.collection(typeId).resolveFields(id, choices)}
        />
      )}
      {conflict && conflict.reason === 'rejected' && (
        <section className="conflict" aria-label="Conflict">
          <p role="alert">The server refused this change: {conflict.error?.message ?? ''}</p>
          <button type="button" onClick={() => void client.collection(typeId).acceptTheirs(id)}>Accept theirs</button>
          <button type="button" onClick={() => void client.collection(typeId).keepMine(id)}>Keep mine</button>
        </section>
      )}
      {conflict && conflict.reason === 'deletedOnServer' && (
        <section className="conflict" aria-label="Conflict">
          <p role="alert">
            This document was deleted on the server while you changed it. Keep mine saves your version as a new document (a deleted document's id is not
            reused); Accept theirs drops your changes.
          </p>
          <button type="button" onClick={() => void client.collection(typeId).acceptTheirs(id)}>Accept theirs</button>
          <button type="button" onClick={() => void keepMineAsNew()}>Keep mine</button>
        </section>
      )}
      {restoreConflict && (
        <ConflictView
          fields={restoreConflict.fields}
          onAcceptTheirs={() => {
            setRestoreConflict(undefined);
            loaded.reload();
          }}
          onKeepMine={() => void patch(restoreConflict.modifier, restoreConflict.currentRevision)}
          onResolve={resolveRestore}
        />
      )}

      <div className="columns">
        <section aria-label="Current state">
          <h2>Current state</h2>
          {live ? (
            <>
              <DocumentEditor
                key={`${live.revision}-${state}`}
                schema={schema}
                initial={live}
                errors={errors === noErrors ? refusalErrors(conflict, formFieldsOf(schema)?.map(({ name }) => name)) : errors}
                onSave={(fields) => void save(fields)}
                onInvalid={setErrors}
              />
              <button type="button" className="danger" onClick={() => void remove()}>Delete</button>
            </>
          ) : (
            <pre className="json">{JSON.stringify(editableFields(loaded.value), null, 2)}</pre>
          )}
        </section>

        <section aria-label="History">
          <h2>History</h2>
          <LoadError error={history.error} />
          <ol className="history" aria-label="Changes">
            {history.entries.map((change) => (
              <li key={change.revision} className={change.revision === at ? 'selected' : undefined} aria-current={change.revision === at ? 'true' : undefined} ref={change.revision === linked ? scrollIntoView : undefined}>
                <button type="button" className="link" onClick={() => setSelected(change.revision)} aria-label={`Revision ${change.revision}`}>
                  r{change.revision}
                </button>{' '}
                <Author userId={change.userId} /> · <time dateTime={new Date(change.timestamp).toISOString()}>{new Date(change.timestamp).toLocaleString()}</time> · base {change.baseRevision}
                <code dir="auto">{JSON.stringify(change.modifier)}</code>
              </li>
            ))}
          </ol>
          {history.olderCount > 0 && (
            <button type="button" onClick={history.showOlder}>
              Show older changes ({history.olderCount} more)
            </button>
          )}
        </section>
      </div>

      <section aria-label="State at revision">
        <h2>State at revision {at}</h2>
        <LoadError error={stateAtSelected.error} />
        {selectedState ? <pre className="json" dir="auto">{JSON.stringify(selectedState, null, 2)}</pre> : <p className="loading">Loading revision {at}…</p>}
        {at !== revision && selectedState && (
          <button type="button" onClick={() => restore(selectedState)}>
            Restore this revision
          </button>
        )}
      </section>

      <section aria-label="Diff">
        <h2>Diff</h2>
        <label>
          From revision{' '}
          <input type="number" style={{ width: '7rem' }} min={0} max={revision} step={1} value={comparison.from} onChange={(event) => setCompare({ ...comparison, from: revisionOf(event.target.value) })} />
        </label>{' '}
        <label>
          To revision{' '}
          <input type="number" style={{ width: '7rem' }} min={0} max={revision} step={1} value={comparison.to} onChange={(event) => setCompare({ ...comparison, to: revisionOf(event.target.value) })} />
        </label>
        <table aria-label="Differences">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {(differences ?? []).map((difference) => (
              <tr key={difference.path}>
                <th scope="row">{difference.path}</th>
                <td dir="auto">{show(difference.before)}</td>
                <td dir="auto">{show(difference.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {differences === undefined && <p className="loading">Comparing revisions {comparison.from} and {comparison.to}…</p>}
        {differences?.length === 0 && <p>No differences between revisions {comparison.from} and {comparison.to}.</p>}
      </section>
      <RunOnDocument projectId={projectId} typeId={typeId} documentId={id} />
    </main>
  );
}

export function DocumentDetail({ projectId, typeId, id }: { projectId: string; typeId: string; id: string }) {
  const { user } = useSession();
  const { client, error } = useTypeClient(user!.id, projectId, typeId);
  if (!client) return error ? <LoadError error={error} /> : <p className="loading">Opening {id}…</p>;
  return <Detail client={client} projectId={projectId} typeId={typeId} id={id} />;
}
