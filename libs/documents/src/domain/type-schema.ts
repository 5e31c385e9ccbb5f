import { z } from 'zod';
import { patternProblem } from './patterns';
import { RESERVED_SCHEMA_FIELD_NAMES } from './reserved-fields';

/** The largest length a schema may give (minLength, maxLength, minItems, maxItems): sample data pads values up to the minimum. */
export const MAX_SCHEMA_LENGTH = 100_000;

/** The draft a type schema is written in; `$schema`, when given, must name it. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Formats the server checks (ajv-formats); others are refused, as a format nobody checks would promise what it does not hold. */
export const SUPPORTED_FORMATS = ['date', 'time', 'date-time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uuid', 'json-pointer'] as const;

const jsonTypes = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
type JsonType = (typeof jsonTypes)[number];

/**
 * One node of a type schema: the part of JSON Schema 2020-12 that describes JSON documents. Not in
 * it: composition (allOf/anyOf/oneOf/not/if), patternProperties, uniqueItems (quadratic on long
 * arrays), `$id`/`$anchor`/dynamic references and any `$ref` outside the schema.
 */
export interface JsonSchemaNode {
  type?: JsonType | JsonType[];
  title?: string;
  description?: string;
  $comment?: string;
  default?: unknown;
  examples?: unknown[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: (typeof SUPPORTED_FORMATS)[number];
  items?: JsonSchemaNode | boolean;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: JsonSchemaNode | boolean;
  $defs?: Record<string, JsonSchemaNode>;
  $ref?: string;
}

/** A type's schema: an object schema at the root, optionally naming its draft. */
export interface TypeSchema extends JsonSchemaNode {
  $schema?: typeof JSON_SCHEMA_DIALECT;
  type: 'object';
}

export interface SchemaProblem {
  field: string;
  message: string;
  /**
   * The JSON Schema keyword the value failed (`maxLength`, `required`, `format`, ...) and its
   * parameters as the validator reports them (`{ limit: 40 }`), so a client can word the problem
   * in its own language; absent for problems no keyword states (a pattern check over its budget).
   */
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Field names become modifier paths (`address.city`) and storage keys: no dots, no `$`. */
export const fieldName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'field names start with a letter and hold letters, digits and _');
const definitionName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'definition names start with a letter and hold letters, digits, _ and -');

const pattern = z
  .string()
  .max(500)
  .superRefine((value, context) => {
    const problem = patternProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

const length = z.number().int().min(0).max(MAX_SCHEMA_LENGTH);
const typeName = z.enum(jsonTypes);

/** Only references into this schema (`#`, `#/$defs/address`): a remote one would make the server fetch, or read another tenant's schema. */
const localReference = z
  .string()
  .max(500)
  .regex(/^#(\/[A-Za-z0-9_$~-]+)*$/, 'only references within the schema (#/$defs/name) are allowed');

function includesType(node: JsonSchemaNode, type: JsonType): boolean {
  return node.type === undefined || node.type === type || (Array.isArray(node.type) && node.type.includes(type));
}

/** Bounds no value could satisfy; refused when the schema is saved rather than failing every write. */
function checkBounds(node: JsonSchemaNode, context: z.RefinementCtx): void {
  const { minLength, maxLength, minItems, maxItems } = node;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) context.addIssue({ code: 'custom', path: ['minLength'], message: `must not exceed maxLength (${maxLength})` });
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) context.addIssue({ code: 'custom', path: ['minItems'], message: `must not exceed maxItems (${maxItems})` });
  const lower = node.exclusiveMinimum ?? node.minimum;
  const upper = node.exclusiveMaximum ?? node.maximum;
  const at = node.exclusiveMinimum !== undefined ? 'exclusiveMinimum' : 'minimum';
  if (lower === undefined || upper === undefined) return;
  const open = node.exclusiveMinimum !== undefined || node.exclusiveMaximum !== undefined;
  if (lower > upper || (open && lower === upper)) context.addIssue({ code: 'custom', path: [at], message: `leaves no number up to the maximum (${upper})` });
  else if (!includesType(node, 'number') && includesType(node, 'integer') && Math.ceil(lower) > Math.floor(upper)) context.addIssue({ code: 'custom', path: [at], message: `no whole number lies between the minimum and the maximum (${upper})` });
}

/** The keywords of a node; a function, as the node schema refers to itself. */
function nodeShape() {
  return {
    type: z.union([typeName, z.array(typeName).min(1).max(jsonTypes.length)]).optional(),
    title: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
    $comment: z.string().max(2000).optional(),
    default: z.json().optional(),
    examples: z.array(z.json()).max(20).optional(),
    enum: z.array(z.json()).min(1).max(500).optional(),
    const: z.json().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.number().optional(),
    exclusiveMaximum: z.number().optional(),
    multipleOf: z.number().positive().optional(),
    minLength: length.optional(),
    maxLength: length.optional(),
    pattern: pattern.optional(),
    format: z.enum(SUPPORTED_FORMATS).optional(),
    items: z.union([z.boolean(), jsonSchemaNodeSchema]).optional(),
    minItems: length.optional(),
    maxItems: length.optional(),
    properties: z.record(fieldName, jsonSchemaNodeSchema).optional(),
    required: z.array(fieldName).max(1000).optional(),
    additionalProperties: z.union([z.boolean(), jsonSchemaNodeSchema]).optional(),
    $defs: z.record(definitionName, jsonSchemaNodeSchema).optional(),
    $ref: localReference.optional(),
  };
}

/** The node a local reference (`#`, `#/$defs/address`) names in `root`, or undefined when it names none. */
export function referencedNode(root: JsonSchemaNode, reference: string): JsonSchemaNode | undefined {
  let node: unknown = root;
  for (const segment of reference.slice(1).split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchemaNode) : undefined;
}

/**
 * The path of a `$ref` whose chain of references comes back to a node it passed without going
 * through a property or an item (`a` refers to `b`, `b` to `a`; the root to `#`): no value can be
 * checked against it (the validator recurses without end) nor a declaration written for it. A
 * reference through a property (`{"properties": {"child": {"$ref": "#"}}}`, a tree) is fine.
 */
export function referenceCycle(root: JsonSchemaNode): string[] | undefined {
  const nodes: Array<[path: string[], node: JsonSchemaNode]> = [];
  const collect = (node: JsonSchemaNode, path: string[]) => {
    nodes.push([path, node]);
    for (const keyword of ['properties', '$defs'] as const) for (const [name, inner] of Object.entries(node[keyword] ?? {})) collect(inner, [...path, keyword, name]);
    for (const keyword of ['items', 'additionalProperties'] as const) {
      const inner = node[keyword];
      if (inner !== undefined && typeof inner === 'object') collect(inner, [...path, keyword]);
    }
  };
  collect(root, []);
  for (const [path, start] of nodes) {
    const passed = new Set<JsonSchemaNode>([start]);
    for (let node = start; node.$ref !== undefined; ) {
      const target = referencedNode(root, node.$ref);
      if (!target) break;
      if (passed.has(target)) return [...path, '$ref'];
      passed.add(target);
      node = target;
    }
  }
  return undefined;
}

export const jsonSchemaNodeSchema: z.ZodType<JsonSchemaNode> = z.lazy(() => z.object(nodeShape()).strict().superRefine(checkBounds)) as z.ZodType<JsonSchemaNode>;

/**
 * A type's schema as stored: JSON Schema with an object at the root (that Ajv compiles it is
 * checked by typeSchemaInputSchema). Its top-level properties may not use the reserved names (server-owned
 * fields, `access`, visitor fields): the schema would validate values clients cannot write or
 * that it does not govern.
 */
export const typeSchemaSchema = z
  .object({
    ...nodeShape(),
    $schema: z.literal(JSON_SCHEMA_DIALECT).optional(),
    type: z.literal('object', { message: "a type schema describes a document: its root has type 'object'" }),
  })
  .strict()
  .superRefine(checkBounds)
  .superRefine((schema, context) => {
    for (const name of Object.keys(schema.properties ?? {})) {
      if (RESERVED_SCHEMA_FIELD_NAMES.has(name)) context.addIssue({ code: 'custom', path: ['properties', name], message: `${name} is reserved for the server and row-level security` });
    }
    const cycle = referenceCycle(schema as JsonSchemaNode);
    if (cycle) context.addIssue({ code: 'custom', path: cycle, message: 'refers back to itself through references alone: no value could be checked against it (refer through a property or an item instead)' });
  }) as unknown as z.ZodType<TypeSchema>;
