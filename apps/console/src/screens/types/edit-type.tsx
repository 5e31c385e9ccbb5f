import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { ConfirmButton } from '../../components/confirm-button';
import { Field, TextField } from '../../components/field';
import { formErrors, noErrors, type FormErrors } from '../../components/form-errors';
import { SubmitForm } from '../../components/submit-form';
import { parseSchema, schemaText, type TypeRecord } from './type-record';

/**
 * *Edit <type>*: its name and schema, saved with the revision they were read at; the new schema
 * holds from the next write of a document (stored documents stay as they are). Deleting it (asked
 * twice) hides its documents until it is restored.
 */
export function EditType({ projectId, type, onDone }: { projectId: string; type: TypeRecord; onDone: (status: string) => void }) {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = parseSchema(String(form.get('schema')));
    if ('error' in parsed) return setErrors({ fields: { schema: parsed.error } });
    const name = String(form.get('name')).trim();
    const modifier = parsed.schema === undefined ? { $set: { name }, $unset: { schema: '' } } : { $set: { name, schema: parsed.schema } };
    try {
      await unwrap(api.PATCH('/api/projects/{projectId}/types/{id}', { params: { path: { projectId, id: type.id } }, body: { baseRevision: type.revision, modifier } }));
      onDone(`Saved the type ${type.id}.`);
    } catch (error) {
      setErrors(formErrors(error, ['name', 'schema']));
    }
  };
  const remove = async () => {
    try {
      await unwrap(api.DELETE('/api/projects/{projectId}/types/{id}', { params: { path: { projectId, id: type.id } } }));
      onDone(`Deleted the type ${type.id}: its documents are hidden until it is restored (Show deleted types).`);
    } catch (error) {
      setErrors(formErrors(error, []));
    }
  };
  const cancel = (
    <button type="button" onClick={() => onDone('')}>
      Cancel
    </button>
  );
  return (
    <section aria-label={`Edit ${type.id}`}>
      <SubmitForm label={`Edit ${type.id}`} className="inline-form" submitLabel="Save type" formError={errors.form} beside={cancel} onSubmit={save}>
        <h2 className="form-title">Edit {type.id}</h2>
        <Field label="Name" name="name" defaultValue={type.name ?? type.id} error={errors.fields.name} />
        <TextField label="Schema (JSON Schema, empty: none)" name="schema" rows={10} spellCheck={false} defaultValue={schemaText(type.schema)} error={errors.fields.schema} />
        <p className="muted">A changed schema holds from each document’s next write; documents already stored stay as they are.</p>
      </SubmitForm>
      <ConfirmButton label="Delete type" question={`Delete ${type.id}? Its documents are hidden until it is restored.`} confirmLabel="Yes, delete it" onConfirm={() => void remove()} />
    </section>
  );
}
