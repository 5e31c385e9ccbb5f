import { randomUUID } from 'node:crypto';

/** The parts of a JSON Schema (as the OpenAPI document holds them) that sampling looks at. */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
}

/** Strings tried, in order, against a pattern the sampler cannot otherwise satisfy. */
const patternCandidates = ['sample', 'sample-1', 'x', 'a1', 'A', '1', 'en', 'example.org', 'https://example.org', '#336699'];

function sampleString(schema: JsonSchema): string {
  if (schema.format === 'email') return 'someone@example.org';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.org/';
  if (schema.format === 'uuid') return randomUUID();
  const candidates = schema.pattern ? patternCandidates.filter((candidate) => new RegExp(schema.pattern as string).test(candidate)) : ['sample'];
  let value = candidates[0] ?? 'sample';
  while (value.length < (schema.minLength ?? 0)) value += 'x';
  return schema.maxLength !== undefined ? value.slice(0, schema.maxLength) : value;
}

/**
 * A small value that satisfies `schema`: required properties only, first enum value or union
 * member, lower bounds. Enough to get a request past validation so the test reaches the checks
 * behind it (membership, RLS), not a general generator.
 */
export function sampleFromSchema(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return sampleFromSchema(union.find((member) => member.type !== 'null') ?? union[0]);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((part) => sampleFromSchema(part) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sampleFromSchema(schema.properties?.[name])]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleFromSchema(schema.items));
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return schema.properties ? sampleFromSchema({ ...schema, type: 'object' }) : {};
  }
}
