import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field, TextField } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { Link } from '../router';
import { typePath } from '../paths';

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

export function Types({ projectId }: { projectId: string }) {
  const types = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/types', { params: { path: { projectId } } }))).items, projectId);
  const [creating, setCreating] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [shownSchema, setShownSchema] = useState<string>();

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typeId = String(form.get('id'));
    const schemaText = String(form.get('schema') ?? '').trim();
    let schema: unknown;
    try {
      schema = schemaText ? JSON.parse(schemaText) : undefined;
    } catch (error) {
      setErrors({ fields: { schema: `Not JSON: ${(error as Error).message}` } });
      return;
    }
    try {
      await unwrap(api.POST('/api/projects/{projectId}/types', { params: { path: { projectId } }, body: { id: typeId, name: typeId, ...(schema === undefined ? {} : { schema }) } }));
      setErrors(noErrors);
      setCreating(false);
      types.reload();
    } catch (error) {
      setErrors(formErrors(error, ['id', 'schema']));
    }
  };

  return (
    <main>
      <h1>Types</h1>
      <button type="button" onClick={() => setCreating(true)}>New type</button>
      {creating && (
        <form onSubmit={create} className="inline-form" noValidate>
          <Field label="Type id" name="id" autoFocus error={errors.fields.id} />
          <TextField label="Schema (JSON Schema, optional)" name="schema" rows={6} spellCheck={false} error={errors.fields.schema} />
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit">Save</button>
        </form>
      )}
      <LoadError error={types.error} />
      <table aria-label="Types">
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Schema</th>
          </tr>
        </thead>
        <tbody>
          {(types.value ?? []).map((type) => (
            <tr key={type.id}>
              <td>
                <Link to={typePath(projectId, type.id)}>{type.id}</Link>
              </td>
              <td>
                {'schema' in type && type.schema ? (
                  <button type="button" className="link" onClick={() => setShownSchema(type.id)}>
                    Show schema
                  </button>
                ) : (
                  'none'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {types.value?.length === 0 && <p>No type yet: create one.</p>}
      {shownSchema && <SchemaView projectId={projectId} typeId={shownSchema} />}
    </main>
  );
}
