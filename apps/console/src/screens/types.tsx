import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field, TextField } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LabelledTable } from '../components/labelled-table';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { Link } from '../router';
import { typePath } from '../paths';
import { EditType } from './types/edit-type';
import { loadTypesWithDeleted, parseSchema } from './types/type-record';

/** A type's schema, as the server answers it (`GET .../types/{t}/schema`). */
function SchemaView({ projectId, typeId }: { projectId: string; typeId: string }) {
  const schema = useLoad(() => unwrap(api.GET('/api/projects/{projectId}/types/{typeId}/schema', { params: { path: { projectId, typeId } } })), `${projectId}/${typeId}`);
  return (
    <section aria-label={`Schema of ${typeId}`}>
      <h2>Schema of {typeId}</h2>
      <LoadError error={schema.error} />
      {schema.value !== undefined && <pre className="json">{JSON.stringify(schema.value.schema, null, 2)}</pre>}
    </section>
  );
}

/** The project's types: make one, show a schema, edit or delete one, and restore a deleted one. */
export function Types({ projectId }: { projectId: string }) {
  const all = useLoad(() => loadTypesWithDeleted(projectId), projectId);
  const live = all.value?.filter((type) => type.deletedAt === undefined);
  const deleted = all.value?.filter((type) => type.deletedAt !== undefined) ?? [];
  const [creating, setCreating] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [shownSchema, setShownSchema] = useState<string>();
  const [editing, setEditing] = useState<string>();
  const [showDeleted, setShowDeleted] = useState(false);
  const [status, setStatus] = useState('');
  const [restoreError, setRestoreError] = useState<unknown>();
  const editedType = live?.find((type) => type.id === editing);

  const restore = async (typeId: string) => {
    try {
      await unwrap(api.POST('/api/projects/{projectId}/types/{typeId}/restore', { params: { path: { projectId, typeId } } }));
      setRestoreError(undefined);
      setStatus(`Restored the type ${typeId} with its documents.`);
    } catch (error) {
      setRestoreError(error);
    }
    all.reload();
  };

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typeId = String(form.get('id'));
    const parsed = parseSchema(String(form.get('schema') ?? ''));
    if ('error' in parsed) return setErrors({ fields: { schema: parsed.error } });
    const { schema } = parsed;
    try {
      await unwrap(api.POST('/api/projects/{projectId}/types', { params: { path: { projectId } }, body: { id: typeId, name: typeId, ...(schema === undefined ? {} : { schema }) } }));
      setErrors(noErrors);
      setCreating(false);
      all.reload();
    } catch (error) {
      setErrors(formErrors(error, ['id', 'schema']));
    }
  };

  return (
    <main>
      <h1>Types</h1>
      <div className="toolbar">
        <button type="button" onClick={() => setCreating(true)}>New type</button>
        <a href={`/api/projects/${encodeURIComponent(projectId)}/types.d.ts`} download="types.d.ts">
          TypeScript declarations
        </a>
      </div>
      {creating && (
        <form onSubmit={create} className="inline-form" noValidate>
          <Field label="Type id" name="id" autoFocus error={errors.fields.id} />
          <TextField label="Schema (JSON Schema, optional)" name="schema" rows={6} spellCheck={false} error={errors.fields.schema} />
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit">Save</button>
        </form>
      )}
      <LoadError error={all.error ?? restoreError} />
      <LabelledTable label="Types" headers={['Type', 'Name', 'Schema', 'Change']}>
        {(live ?? []).map((type) => (
          <tr key={type.id}>
            <td>
              <Link to={typePath(projectId, type.id)}>{type.id}</Link>
            </td>
            <td>{type.name ?? type.id}</td>
            <td>
              {type.schema ? (
                <button type="button" className="link" onClick={() => setShownSchema(type.id)}>
                  Show schema
                </button>
              ) : (
                'none'
              )}
            </td>
            <td>
              <button type="button" onClick={() => setEditing(type.id)} aria-label={`Edit ${type.id}`}>
                Edit
              </button>
            </td>
          </tr>
        ))}
      </LabelledTable>
      {live?.length === 0 && <p>{deleted.length > 0 ? 'No type in use: create one, or restore a deleted one below.' : 'No type yet: create one.'}</p>}
      {status && <p role="status">{status}</p>}
      {editedType && (
        <EditType
          key={`${editedType.id}/${editedType.revision}`}
          projectId={projectId}
          type={editedType}
          onDone={(done) => {
            // Closed once the list holds the saved revision: Edit opened again starts from it.
            void (done ? all.reload() : Promise.resolve()).then(() => {
              setEditing(undefined);
              setStatus(done);
            });
          }}
        />
      )}
      {shownSchema && <SchemaView projectId={projectId} typeId={shownSchema} />}
      {deleted.length > 0 && (
        <label className="switch">
          <input type="checkbox" checked={showDeleted} onChange={(event) => setShowDeleted(event.target.checked)} /> Show deleted types ({deleted.length})
        </label>
      )}
      {showDeleted && deleted.length > 0 && (
        <LabelledTable label="Deleted types" headers={['Type', 'Deleted', 'Restore']}>
          {deleted.map((type) => (
            <tr key={type.id}>
              <td>{type.id}</td>
              <td>{new Date(type.deletedAt!).toLocaleString()}</td>
              <td>
                <button type="button" onClick={() => void restore(type.id)} aria-label={`Restore ${type.id}`}>
                  Restore
                </button>
              </td>
            </tr>
          ))}
        </LabelledTable>
      )}
    </main>
  );
}
