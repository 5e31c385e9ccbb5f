import { Faker, en } from '@faker-js/faker';
import { generateSync } from 'json-schema-faker';
import { referencedNode, type JsonSchemaNode, type SchemaProblem, type TypeSchema } from '@platform/documents';

type StringGenerator = (faker: Faker) => string;

/**
 * Realistic values for common field names (matched on the lower-cased name, first hit wins); any
 * other free string gets a few words. Used only where the schema leaves the string free (no
 * pattern, format, enum or const): json-schema-faker fills those with random letters.
 */
const stringsByFieldName: Array<[pattern: RegExp, generate: StringGenerator]> = [
  [/email/, (faker) => faker.internet.email().toLowerCase()],
  [/first/, (faker) => faker.person.firstName()],
  [/last|surname/, (faker) => faker.person.lastName()],
  [/phone|mobile/, (faker) => faker.phone.number({ style: 'international' })],
  [/url|website|link/, (faker) => faker.internet.url()],
  [/avatar|image|photo/, (faker) => faker.image.url()],
  [/street|address/, (faker) => faker.location.streetAddress()],
  [/city|town/, (faker) => faker.location.city()],
  [/zip|postal/, (faker) => faker.location.zipCode()],
  [/country/, (faker) => faker.location.country()],
  [/company|organi[sz]ation/, (faker) => faker.company.name()],
  [/color|colour/, (faker) => faker.color.human()],
  [/currency/, (faker) => faker.finance.currencyCode()],
  [/user ?name|login|handle/, (faker) => faker.internet.username()],
  [/name/, (faker) => faker.person.fullName()],
  [/title|subject|headline/, (faker) => faker.lorem.sentence({ min: 2, max: 5 }).replace(/\.$/, '')],
  [/description|notes?|comment|body|text|summary/, (faker) => faker.lorem.paragraph()],
  [/tag|category|label/, (faker) => faker.commerce.department()],
  [/product|item/, (faker) => faker.commerce.productName()],
];

/** Sample strings stop growing here unless the schema asks for longer ones. */
const SAMPLE_STRING_LENGTH = 200;
/** Sample arrays hold at most this many items unless the schema asks for more. */
const SAMPLE_ARRAY_ITEMS = 3;
/** References are followed this deep, as json-schema-faker does. */
const REFERENCE_DEPTH = 5;

/** The answer would be larger than its limit: thrown before generating when the schema's smallest documents already pass it, or as soon as the generated ones do. */
export class SampleDataTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the sample documents would be larger than ${limitBytes} bytes`);
    this.name = 'SampleDataTooLargeError';
  }
}

/** The schema takes more work to size or to generate than one request may spend: thrown before generating (too many nodes to size) or while generating (past the time budget). */
export class SampleSchemaTooComplexError extends Error {
  constructor(readonly reason: 'nodes' | 'time', readonly limit: number) {
    super(reason === 'nodes' ? `sizing its sample documents would visit more than ${limit} schema nodes` : `generating its sample documents took longer than ${limit} ms`);
    this.name = 'SampleSchemaTooComplexError';
  }
}

/** No generated document satisfied the schema (the generator cannot always honour every keyword together): the last attempt's problems. */
export class SampleDataInvalidError extends Error {
  constructor(readonly problems: SchemaProblem[], readonly attempts: number) {
    super(`no valid sample document after ${attempts} attempts: ${problems[0]?.field ?? 'body'} ${problems[0]?.message ?? 'is invalid'}`);
    this.name = 'SampleDataInvalidError';
  }
}

function resolve(node: JsonSchemaNode, root: TypeSchema): JsonSchemaNode {
  let current = node;
  for (let hops = 0; current.$ref !== undefined && hops < REFERENCE_DEPTH; hops += 1) {
    const target = referencedNode(root, current.$ref);
    if (!target) break;
    current = target;
  }
  return current;
}

function typesOf(node: JsonSchemaNode): string[] {
  if (node.type === undefined) return ['null'];
  return Array.isArray(node.type) ? node.type : [node.type];
}

const EMPTY_SCHEMA: JsonSchemaNode = {};
const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'] as const;

/** Schema nodes the size estimate may visit per request (each visit is a few microseconds). */
export const ESTIMATE_NODE_BUDGET = 100_000;
/**
 * What the generator makes where it stops following references (an arbitrary value from an empty
 * schema: a string of up to 10 letters, a number, true, null, [], {}) is counted as this many bytes.
 */
const PAST_REFERENCE_DEPTH_BYTES = 32;

/**
 * The fewest JSON bytes the generator's value for the schema can take, counted so that it never
 * falls below what the generator makes: every property filled (as samples are), required names
 * outside `properties` filled from `additionalProperties`, arrays at their `minItems`, strings at
 * their `minLength`. Where the generator chooses (a `type` list, an untyped node, whose type it
 * infers or picks at random, an `enum`), the largest choice counts; past the references the
 * generator follows, its arbitrary value counts PAST_REFERENCE_DEPTH_BYTES. Each (node, references
 * left) pair is sized once (a schema whose properties all refer back to their object is sized in
 * linear, not exponential, time), and the estimate refuses (SampleSchemaTooComplexError) after
 * `nodeBudget` visits. `visits` is how many it made.
 */
export function estimateSampleBytes(schema: TypeSchema, nodeBudget = ESTIMATE_NODE_BUDGET): { bytes: number; visits: number } {
  const sized = new Map<JsonSchemaNode, number[]>();
  /** A `$ref` node as the generator reads it: its target with the node's other keywords on top. */
  const merged = new Map<JsonSchemaNode, JsonSchemaNode | undefined>();
  let visits = 0;

  const sizeOf = (node: JsonSchemaNode | boolean | undefined, referencesLeft: number): number => {
    visits += 1;
    if (visits > nodeBudget) throw new SampleSchemaTooComplexError('nodes', nodeBudget);
    if (node === undefined || node === true) return sizeOf(EMPTY_SCHEMA, referencesLeft);
    if (node === false) return 0;
    const known = sized.get(node)?.[referencesLeft];
    if (known !== undefined) return known;
    const bytes = measure(node, referencesLeft);
    const byDepth = sized.get(node) ?? [];
    byDepth[referencesLeft] = bytes;
    sized.set(node, byDepth);
    return bytes;
  };

  const measure = (node: JsonSchemaNode, referencesLeft: number): number => {
    if (node.$ref !== undefined) {
      if (referencesLeft === 0) return PAST_REFERENCE_DEPTH_BYTES;
      if (!merged.has(node)) {
        const target = referencedNode(schema, node.$ref);
        const { $ref: _reference, ...siblings } = node;
        // Without other keywords the target itself, so that every reference to it shares its sizes.
        merged.set(node, target && (Object.keys(siblings).length ? { ...target, ...siblings } : target));
      }
      const target = merged.get(node);
      return target ? sizeOf(target, referencesLeft - 1) : PAST_REFERENCE_DEPTH_BYTES;
    }
    if (node.const !== undefined) return JSON.stringify(node.const).length;
    if (node.enum) return Math.max(0, ...node.enum.map((value) => JSON.stringify(value).length));
    const types = node.type === undefined ? JSON_TYPES : Array.isArray(node.type) ? node.type : [node.type];
    let largest = 0;
    for (const type of types) {
      let bytes: number;
      if (type === 'string') bytes = (node.minLength ?? 0) + 2;
      else if (type === 'array') bytes = (node.minItems ?? 0) === 0 ? 2 : 2 + (node.minItems ?? 0) * (sizeOf(node.items, referencesLeft) + 1);
      else if (type === 'object') {
        bytes = 2;
        const properties = node.properties ?? {};
        for (const [name, inner] of Object.entries(properties)) bytes += name.length + 4 + sizeOf(inner, referencesLeft);
        for (const name of node.required ?? []) if (!Object.hasOwn(properties, name) && node.additionalProperties !== false) bytes += name.length + 4 + sizeOf(node.additionalProperties, referencesLeft);
      } else if (type === 'boolean' || type === 'null') bytes = 4;
      else bytes = 1;
      largest = Math.max(largest, bytes);
    }
    return largest;
  };

  const bytes = sizeOf(schema, REFERENCE_DEPTH);
  return { bytes, visits };
}

/** The smallest whole multiple of a fractional `multipleOf` (0.3 gives 3), or undefined past 1,000 steps. */
function wholeMultiple(multipleOf: number): number | undefined {
  for (let steps = 1; steps <= 1_000; steps += 1) {
    const product = steps * multipleOf;
    if (Math.abs(product - Math.round(product)) < 1e-9 && Math.round(product) !== 0) return Math.round(product);
  }
  return undefined;
}

/**
 * The schema narrowed for generating: strings and arrays no longer than the schema needs (a
 * maxLength of 100,000 would otherwise fill strings that long), and no null where another type
 * is allowed (an old-dialect optional field allows null; a sample should show a value). A
 * narrower schema's values satisfy the original. An integer with a fractional `multipleOf` takes
 * its smallest whole multiple (the generator would make 1.7999999999999998 for 0.3). `minLength`
 * and `minItems` are held to `cap` (no longer string or array fits an answer of that many bytes):
 * json-schema-faker's own minLength/maxLength/maxItems options would override the schema's bounds
 * (its maxLength replaces a pattern's), so the cap is written into the schema instead.
 */
function forGenerating(node: JsonSchemaNode, cap: number): JsonSchemaNode {
  const narrowed: JsonSchemaNode = { ...node };
  if (Array.isArray(node.type) && node.type.length > 1) narrowed.type = node.type.filter((type) => type !== 'null');
  if (node.enum && node.enum.some((value) => value !== null)) narrowed.enum = node.enum.filter((value) => value !== null);
  if (node.minLength !== undefined) narrowed.minLength = Math.min(node.minLength, cap);
  if (node.minItems !== undefined) narrowed.minItems = Math.min(node.minItems, cap);
  if (typesOf(node).includes('string') && node.pattern === undefined && node.format === undefined) narrowed.maxLength = Math.min(node.maxLength ?? Infinity, Math.max(narrowed.minLength ?? 0, SAMPLE_STRING_LENGTH));
  if (typesOf(node).includes('array')) narrowed.maxItems = Math.min(node.maxItems ?? Infinity, Math.max(narrowed.minItems ?? 0, SAMPLE_ARRAY_ITEMS));
  if (typesOf(node).includes('integer') && node.multipleOf !== undefined && !Number.isInteger(node.multipleOf)) narrowed.multipleOf = wholeMultiple(node.multipleOf) ?? node.multipleOf;
  const inner = (child: JsonSchemaNode | boolean): JsonSchemaNode | boolean => (child === true ? {} : child === false ? false : forGenerating(child, cap));
  const each = (record: Record<string, JsonSchemaNode> | undefined) => record && Object.fromEntries(Object.entries(record).map(([name, child]) => [name, inner(child)]));
  if (node.properties) narrowed.properties = each(node.properties) as Record<string, JsonSchemaNode>;
  if (node.$defs) narrowed.$defs = each(node.$defs) as Record<string, JsonSchemaNode>;
  // Written out so that every empty schema the generator walks is one of this schema's own nodes (see generatedPastReferences).
  if (node.items !== undefined || typesOf(node).includes('array')) narrowed.items = inner(node.items ?? true) as JsonSchemaNode;
  if (node.additionalProperties !== undefined) narrowed.additionalProperties = inner(node.additionalProperties) as JsonSchemaNode;
  const undeclared = (node.required ?? []).filter((name) => !Object.hasOwn(node.properties ?? {}, name));
  if (undeclared.length && node.additionalProperties !== false) narrowed.properties = { ...narrowed.properties, ...Object.fromEntries(undeclared.map((name) => [name, inner(node.additionalProperties ?? true)])) } as Record<string, JsonSchemaNode>;
  return narrowed;
}

/** Every schema node of the generating schema (the generator's own nodes are not among them). */
function nodesOf(node: unknown, into = new WeakSet<object>()): WeakSet<object> {
  if (node === null || typeof node !== 'object' || into.has(node)) return into;
  into.add(node);
  for (const value of Object.values(node)) nodesOf(value, into);
  return into;
}

function fitted(value: string, node: JsonSchemaNode, faker: Faker): string {
  let fit = value;
  while (fit.length < (node.minLength ?? 0)) fit += ` ${faker.lorem.word()}`;
  return node.maxLength === undefined ? fit : fit.slice(0, node.maxLength);
}

/** A free string: nothing but its length constrains it. */
function isFreeString(node: JsonSchemaNode): boolean {
  return node.pattern === undefined && node.format === undefined && node.enum === undefined && node.const === undefined;
}

/** Replaces free strings of the generated value with values that look like their field names say. */
function withNameHints(value: unknown, node: JsonSchemaNode | boolean | undefined, name: string, root: TypeSchema, faker: Faker, depth: number): unknown {
  if (typeof node !== 'object' || depth > REFERENCE_DEPTH * 8) return value;
  const resolved = resolve(node, root);
  if (typeof value === 'string' && isFreeString(resolved)) {
    const lower = name.toLowerCase();
    const generate = stringsByFieldName.find(([pattern]) => pattern.test(lower))?.[1] ?? ((f: Faker) => f.lorem.words({ min: 2, max: 4 }));
    return fitted(generate(faker), resolved, faker);
  }
  if (Array.isArray(value)) return value.map((item) => withNameHints(item, resolved.items, name, root, faker, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withNameHints(inner, resolved.properties?.[key], key, root, faker, depth + 1)]));
  }
  return value;
}

/** The schema the generator puts where it stops following references or nesting. */
function isPlaceholder(node: JsonSchemaNode): boolean {
  const keys = Object.keys(node);
  return keys.length === 0 || (keys.length === 1 && node.type === 'null');
}

/** Generating the samples of one request may take this long before it is refused. */
export const GENERATION_TIME_BUDGET_MS = 2_000;
/** Each sample is generated at most this many times (with another seed) until it satisfies the schema. */
export const SAMPLE_ATTEMPTS = 5;

export interface SampleOptions {
  count: number;
  seed: number;
  limitBytes: number;
  /** The type's document validation (the check POST .../data runs); a sample is answered only when it finds no problem. */
  validate?: (sample: Record<string, unknown>) => SchemaProblem[];
  /** Defaults to GENERATION_TIME_BUDGET_MS. */
  timeBudgetMs?: number;
  /** Defaults to ESTIMATE_NODE_BUDGET. */
  nodeBudget?: number;
}

/**
 * `count` documents that satisfy the schema, every property filled: json-schema-faker generates
 * them (patterns, formats, bounds, enums, references), and free strings get values that look like
 * their field names say (email, name, city, ...). The same seed gives the same samples.
 *
 * Before generating anything, the documents' size is estimated (estimateSampleBytes):
 * SampleDataTooLargeError when `count` of them would pass `limitBytes`, SampleSchemaTooComplexError
 * when sizing them takes more than `nodeBudget` node visits. While generating,
 * SampleSchemaTooComplexError past `timeBudgetMs` and SampleDataTooLargeError as soon as the
 * generated documents pass `limitBytes`. With `validate`, a sample it refuses is generated again
 * from another seed, up to SAMPLE_ATTEMPTS times, then SampleDataInvalidError with its problems.
 */
export function generateSamples(schema: TypeSchema, options: SampleOptions): Array<Record<string, unknown>> {
  const generating = forGenerating(schema, options.limitBytes) as TypeSchema;
  const { bytes } = estimateSampleBytes(generating, options.nodeBudget);
  if (bytes * options.count > options.limitBytes) throw new SampleDataTooLargeError(options.limitBytes);
  const timeBudgetMs = options.timeBudgetMs ?? GENERATION_TIME_BUDGET_MS;
  const deadline = performance.now() + timeBudgetMs;
  const ownNodes = nodesOf(generating);
  /**
   * Called for every value the generator makes: refuses past the time budget, and leaves out a
   * value made past the references it follows. There it generates from an empty schema of its own
   * (`{}`, or `{ type: 'null' }` past its nesting depth), which makes an arbitrary value that the
   * schema at that place would mostly refuse; left out, an optional property or array item is
   * simply absent, and a required one is reported by validation.
   */
  const withinTime = (value: unknown, node: unknown) => {
    if (performance.now() > deadline) throw new SampleSchemaTooComplexError('time', timeBudgetMs);
    if (typeof node === 'object' && node !== null && !ownNodes.has(node) && isPlaceholder(node as JsonSchemaNode)) return undefined;
    return value;
  };
  const faker = new Faker({ locale: [en] });
  faker.seed(options.seed);
  const samples: Array<Record<string, unknown>> = [];
  let spent = 0;
  for (let index = 0; index < options.count; index += 1) {
    let problems: SchemaProblem[] = [];
    let accepted: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < SAMPLE_ATTEMPTS && accepted === undefined; attempt += 1) {
      const generated = generateSync(generating as Parameters<typeof generateSync>[0], { seed: faker.number.int({ min: 1, max: 2 ** 31 - 1 }), alwaysFakeOptionals: true, refDepth: REFERENCE_DEPTH, outputTransform: withinTime });
      withinTime(undefined, undefined);
      const sample = withNameHints(generated, schema, '', schema, faker, 0) as Record<string, unknown>;
      problems = options.validate?.(sample) ?? [];
      if (problems.length === 0) accepted = sample;
    }
    if (accepted === undefined) throw new SampleDataInvalidError(problems, SAMPLE_ATTEMPTS);
    spent += Buffer.byteLength(JSON.stringify(accepted));
    if (spent > options.limitBytes) throw new SampleDataTooLargeError(options.limitBytes);
    samples.push(accepted);
  }
  return samples;
}
