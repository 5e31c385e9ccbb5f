import { useId } from 'react';
import type { BlockDefinition, DraftBlock } from './graph-model';

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
}

/** A configuration value as text: strings as they are, anything else as JSON. */
const asText = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** Typed JSON (`100`, `true`, `{"a":1}`) becomes that value; anything else stays the text typed. */
const fromJsonText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

function ConfigurationField({ name, schema, required, value, error, onChange }: { name: string; schema: PropertySchema; required: boolean; value: unknown; error: string | undefined; onChange(value: unknown): void }) {
  const id = useId();
  const described = error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  let input;
  if (schema.enum) {
    input = (
      <select id={id} value={asText(value)} onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)} {...described}>
        <option value="">{schema.default === undefined ? '(not set)' : `(default: ${asText(schema.default)})`}</option>
        {schema.enum.map((option) => (
          <option key={asText(option)} value={asText(option)}>
            {asText(option)}
          </option>
        ))}
      </select>
    );
  } else if (type === 'boolean') {
    input = <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} {...described} />;
  } else if (type === 'number' || type === 'integer') {
    input = <input id={id} type="number" value={asText(value)} onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))} {...described} />;
  } else if (type === 'string') {
    input = <input id={id} value={asText(value)} spellCheck={false} onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)} {...described} />;
  } else {
    input = <textarea id={id} rows={3} value={asText(value)} spellCheck={false} onChange={(event) => onChange(event.target.value === '' ? undefined : fromJsonText(event.target.value))} {...described} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {name}
        {required && <abbr title="required"> *</abbr>}
        {type === undefined && !schema.enum && <small> (JSON or text)</small>}
      </label>
      {input}
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * A block's settings, one field per property of its configuration's JSON Schema (a choice for an
 * enum, a checkbox, a number, text, or JSON for anything else); the server's problem with a
 * setting shows beside it.
 */
export function BlockConfiguration({ block, definition, errors, onChange, onRemove }: { block: DraftBlock; definition: BlockDefinition | undefined; errors: Record<string, string>; onChange(configuration: Record<string, unknown>): void; onRemove(): void }) {
  const properties = (definition?.configurationSchema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((definition?.configurationSchema.required ?? []) as string[]);
  const configuration = block.configuration ?? {};
  const set = (name: string, value: unknown) => {
    const next = { ...configuration };
    if (value === undefined) delete next[name];
    else next[name] = value;
    onChange(next);
  };
  return (
    <section aria-label={`Configuration of ${block.id}`} className="inline-form graph-configuration">
      <h2>
        {block.id} <small>{block.blockName}</small>
      </h2>
      {definition && <p className="graph-note">{definition.description}</p>}
      {Object.entries(properties).map(([name, schema]) => (
        <ConfigurationField key={name} name={name} schema={schema} required={required.has(name) || (definition?.requiredInputs.includes(name) ?? false)} value={configuration[name]} error={errors[`${block.id}.${name}`]} onChange={(value) => set(name, value)} />
      ))}
      <button type="button" className="danger" onClick={onRemove}>
        Remove block
      </button>
    </section>
  );
}
