import { useState, type FormEvent } from 'react';
import { Field, TextField } from './field';
import type { FormErrors } from './form-errors';

/** The top-level fields a schema describes with a simple type, edited as form inputs. */
interface FormField {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
}

/** Server-owned fields: never edited, never sent. */
export const SERVER_FIELDS = new Set(['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'changes', 'access']);

/** The schema's simple top-level properties; none when the schema has others (then the JSON editor). */
export function formFieldsOf(schema: unknown): FormField[] | undefined {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  if (!properties || typeof properties !== 'object') return undefined;
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const type = property?.type;
    if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') return undefined;
    fields.push({ name, type });
  }
  return fields.length > 0 ? fields : undefined;
}

export function editableFields(document: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(document).filter(([key]) => !SERVER_FIELDS.has(key)));
}

/**
 * Edits a document's fields: a form from the type's schema when its properties are simple, a JSON
 * editor otherwise. `onSave` gets the new field values (fields left out are removed).
 */
export function DocumentEditor(props: { schema: unknown; initial: Record<string, unknown>; errors: FormErrors; onSave: (fields: Record<string, unknown>) => void; onInvalid: (errors: FormErrors) => void }) {
  const formFields = formFieldsOf(props.schema);
  const [json, setJson] = useState(() => JSON.stringify(editableFields(props.initial), null, 2));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!formFields) {
      try {
        const parsed: unknown = JSON.parse(json);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('a document is a JSON object');
        props.onSave(parsed as Record<string, unknown>);
      } catch (error) {
        props.onInvalid({ fields: { document: `Not a JSON object: ${(error as Error).message}` } });
      }
      return;
    }
    const form = new FormData(event.currentTarget);
    const fields: Record<string, unknown> = { ...editableFields(props.initial) };
    for (const field of formFields) {
      const raw = form.get(field.name);
      if (field.type === 'boolean') fields[field.name] = raw === 'on';
      else if (raw === null || raw === '') delete fields[field.name];
      else if (field.type === 'string') fields[field.name] = String(raw);
      else fields[field.name] = Number(raw);
    }
    props.onSave(fields);
  };

  return (
    <form onSubmit={submit} className="editor" noValidate>
      {formFields ? (
        formFields.map((field) =>
          field.type === 'boolean' ? (
            <Field key={field.name} label={field.name} name={field.name} type="checkbox" defaultChecked={props.initial[field.name] === true} error={props.errors.fields[field.name]} />
          ) : (
            <Field
              key={field.name}
              label={field.name}
              name={field.name}
              type={field.type === 'string' ? 'text' : 'number'}
              step={field.type === 'integer' ? 1 : 'any'}
              defaultValue={props.initial[field.name] === undefined ? '' : String(props.initial[field.name])}
              error={props.errors.fields[field.name]}
            />
          ),
        )
      ) : (
        <TextField label="Document (JSON)" name="document" rows={10} spellCheck={false} value={json} onChange={(event) => setJson(event.target.value)} error={props.errors.fields.document} />
      )}
      {props.errors.form && <p role="alert" className="form-error">{props.errors.form}</p>}
      <button type="submit">Save</button>
    </form>
  );
}
