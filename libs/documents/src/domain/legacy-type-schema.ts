import { z } from 'zod';
import { patternProblem } from './patterns';
import { RESERVED_SCHEMA_FIELD_NAMES } from './reserved-fields';
import { fieldName, MAX_SCHEMA_LENGTH, type JsonSchemaNode, type TypeSchema } from './type-schema';

/**
 * The schema dialect types had before JSON Schema (`{ fields: { name: { type, required, ... } } }`).
 * Still accepted on input for one release and converted on write; types stored in it are read as
 * their JSON Schema equivalent (jsonSchemaFromLegacy).
 */
const legacyFieldTypes = ['string', 'number', 'integer', 'boolean', 'timestamp', 'object', 'array'] as const;

export interface LegacyFieldDefinition {
  type: (typeof legacyFieldTypes)[number];
  required?: boolean;
  title?: string;
  description?: string;
  enum?: Array<string | number>;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  items?: LegacyFieldDefinition;
  fields?: Record<string, LegacyFieldDefinition>;
}

export interface LegacyTypeSchema {
  fields: Record<string, LegacyFieldDefinition>;
}

const pattern = z
  .string()
  .max(500)
  .superRefine((value, context) => {
    const problem = patternProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

function checkBounds(definition: LegacyFieldDefinition, context: z.RefinementCtx): void {
  const { minLength, maxLength, minimum, maximum } = definition;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) context.addIssue({ code: 'custom', path: ['minLength'], message: `must not exceed maxLength (${maxLength})` });
  if (minimum === undefined || maximum === undefined) return;
  if (minimum > maximum) context.addIssue({ code: 'custom', path: ['minimum'], message: `must not exceed maximum (${maximum})` });
  else if (definition.type !== 'number' && Math.ceil(minimum) > Math.floor(maximum)) context.addIssue({ code: 'custom', path: ['minimum'], message: `no whole number lies between minimum and maximum (${maximum})` });
}

const legacyFieldSchema: z.ZodType<LegacyFieldDefinition> = z.lazy(() =>
  z
    .object({
      type: z.enum(legacyFieldTypes),
      required: z.boolean().optional(),
      title: z.string().max(200).optional(),
      description: z.string().max(2000).optional(),
      enum: z.array(z.union([z.string(), z.number()])).min(1).max(500).optional(),
      minLength: z.number().int().min(0).max(MAX_SCHEMA_LENGTH).optional(),
      maxLength: z.number().int().min(0).max(MAX_SCHEMA_LENGTH).optional(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      pattern: pattern.optional(),
      items: legacyFieldSchema.optional(),
      fields: z.record(fieldName, legacyFieldSchema).optional(),
    })
    .strict()
    .superRefine(checkBounds),
);

/** The old dialect with the rules it was saved under (reserved names, bounds, RE2 patterns). */
export const legacyTypeSchemaSchema: z.ZodType<LegacyTypeSchema> = z
  .object({ fields: z.record(fieldName, legacyFieldSchema) })
  .strict()
  .superRefine(({ fields }, context) => {
    for (const name of Object.keys(fields)) {
      if (RESERVED_SCHEMA_FIELD_NAMES.has(name)) context.addIssue({ code: 'custom', path: ['fields', name], message: `${name} is reserved for the server and row-level security` });
    }
  });

/** The old dialect is an object with `fields` and no JSON Schema `type`. */
export function isLegacyTypeSchema(schema: unknown): schema is LegacyTypeSchema {
  return typeof schema === 'object' && schema !== null && 'fields' in schema && !('type' in schema);
}

/**
 * One old field as JSON Schema with the same verdicts. The old dialect let an optional field be
 * null (null counted as absent), so an optional field also allows null; items of an array never
 * could be null. Keywords the old checks ignored for a type (minLength on a number) are dropped.
 */
function fieldJsonSchema(definition: LegacyFieldDefinition, nullable: boolean): JsonSchemaNode {
  const node: JsonSchemaNode = {};
  switch (definition.type) {
    case 'string':
      node.type = 'string';
      if (definition.minLength !== undefined) node.minLength = definition.minLength;
      if (definition.maxLength !== undefined) node.maxLength = definition.maxLength;
      if (definition.pattern !== undefined) node.pattern = definition.pattern;
      break;
    case 'number':
    case 'integer':
    case 'timestamp':
      node.type = definition.type === 'number' ? 'number' : 'integer';
      if (definition.minimum !== undefined) node.minimum = definition.minimum;
      if (definition.maximum !== undefined) node.maximum = definition.maximum;
      break;
    case 'boolean':
      node.type = 'boolean';
      break;
    case 'array':
      node.type = 'array';
      if (definition.items) node.items = fieldJsonSchema(definition.items, false);
      break;
    case 'object':
      Object.assign(node, definition.fields ? objectJsonSchema(definition.fields) : { type: 'object' });
      break;
  }
  if (definition.type === 'timestamp') node.description = 'Unix time in milliseconds';
  if (definition.title !== undefined) node.title = definition.title;
  if (definition.description !== undefined) node.description = [node.description, definition.description].filter(Boolean).join('. ');
  if (definition.enum) node.enum = nullable ? [...definition.enum, null] : [...definition.enum];
  if (nullable) node.type = [node.type as 'string', 'null'];
  return node;
}

function objectJsonSchema(fields: Record<string, LegacyFieldDefinition>): JsonSchemaNode {
  const required = Object.entries(fields)
    .filter(([, definition]) => definition.required)
    .map(([name]) => name);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([name, definition]) => [name, fieldJsonSchema(definition, !definition.required)])),
    ...(required.length ? { required } : {}),
  };
}

/** The JSON Schema that gives every document the verdict the old-dialect schema gave it. */
export function jsonSchemaFromLegacy(legacy: LegacyTypeSchema): TypeSchema {
  return objectJsonSchema(legacy.fields) as TypeSchema;
}

/** A stored type schema in today's form: JSON Schema as stored, the old dialect converted. */
export function currentTypeSchema(stored: unknown): TypeSchema | undefined {
  if (stored === undefined || stored === null) return undefined;
  return isLegacyTypeSchema(stored) ? jsonSchemaFromLegacy(stored) : (stored as TypeSchema);
}
