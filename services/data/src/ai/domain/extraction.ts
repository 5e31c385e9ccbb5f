import type { FieldDefinition, SchemaProblem, TypeSchema } from '../../domain/type-schema';
import { validateDocument } from '../../domain/type-schema';

type JsonSchema = Record<string, unknown>;

function fieldJsonSchema(definition: FieldDefinition): JsonSchema {
  const schema: JsonSchema = {};
  switch (definition.type) {
    case 'string':
      schema.type = 'string';
      if (definition.minLength !== undefined) schema.minLength = definition.minLength;
      if (definition.maxLength !== undefined) schema.maxLength = definition.maxLength;
      if (definition.pattern !== undefined) schema.pattern = definition.pattern;
      break;
    case 'number':
    case 'integer':
    case 'timestamp':
      schema.type = definition.type === 'number' ? 'number' : 'integer';
      if (definition.type === 'timestamp') schema.description = 'Unix time in milliseconds';
      if (definition.minimum !== undefined) schema.minimum = definition.minimum;
      if (definition.maximum !== undefined) schema.maximum = definition.maximum;
      break;
    case 'boolean':
      schema.type = 'boolean';
      break;
    case 'array':
      schema.type = 'array';
      if (definition.items) schema.items = fieldJsonSchema(definition.items);
      break;
    case 'object':
      Object.assign(schema, definition.fields ? objectJsonSchema(definition.fields) : { type: 'object' });
      break;
  }
  if (definition.enum) schema.enum = definition.enum;
  if (definition.title) schema.title = definition.title;
  if (definition.description) schema.description = [schema.description, definition.description].filter(Boolean).join('. ');
  return schema;
}

function objectJsonSchema(fields: Record<string, FieldDefinition>): JsonSchema {
  const required = Object.entries(fields).filter(([, definition]) => definition.required).map(([name]) => name);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([name, definition]) => [name, fieldJsonSchema(definition)])),
    ...(required.length ? { required } : {}),
  };
}

/** The type's schema as JSON Schema, the structured-output format chat-completions providers take. */
export function extractionJsonSchema(schema: TypeSchema): JsonSchema {
  return objectJsonSchema(schema.fields);
}

export type ExtractionResult = { ok: true; data: Record<string, unknown> } | { ok: false; problems: SchemaProblem[] };

/** Models often wrap JSON in a Markdown code fence despite being asked not to. */
function unfence(content: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(content);
  return fenced ? (fenced[1] as string) : content;
}

/**
 * Reads a model's answer as a document of the type: a JSON object, reduced to the fields the
 * schema names (nulls count as absent), that passes the type's validation.
 */
export function readExtraction(schema: TypeSchema, content: string): ExtractionResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfence(content));
  } catch {
    return { ok: false, problems: [{ field: 'answer', message: 'is not JSON' }] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, problems: [{ field: 'answer', message: 'is not a JSON object' }] };
  const data = Object.fromEntries(Object.entries(parsed).filter(([name, value]) => Object.hasOwn(schema.fields, name) && value !== null));
  const problems = validateDocument(schema, data);
  return problems.length ? { ok: false, problems } : { ok: true, data };
}
