import { Faker, en } from '@faker-js/faker';
import { generateSync } from 'json-schema-faker';
import type { JsonSchemaNode, TypeSchema } from '@platform/documents';

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

function resolve(node: JsonSchemaNode, root: TypeSchema): JsonSchemaNode {
  let current = node;
  for (let hops = 0; current.$ref !== undefined && hops < REFERENCE_DEPTH; hops += 1) {
    const target = current.$ref
      .split('/')
      .slice(1)
      .reduce<unknown>((at, segment) => (at as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], root);
    if (typeof target !== 'object' || target === null) break;
    current = target as JsonSchemaNode;
  }
  return current;
}

function typesOf(node: JsonSchemaNode): string[] {
  if (node.type === undefined) return ['null'];
  return Array.isArray(node.type) ? node.type : [node.type];
}

/** The fewest JSON bytes a value of the node takes when every property is filled, as samples are. */
function smallestBytes(node: JsonSchemaNode | boolean | undefined, root: TypeSchema, depth: number): number {
  if (typeof node !== 'object' || depth > REFERENCE_DEPTH) return 0;
  const resolved = resolve(node, root);
  if (resolved.const !== undefined) return JSON.stringify(resolved.const).length;
  if (resolved.enum) return Math.min(...resolved.enum.map((value) => JSON.stringify(value).length));
  const sizes = typesOf(resolved).map((type) => {
    if (type === 'string') return (resolved.minLength ?? 0) + 2;
    if (type === 'array') return 2 + (resolved.minItems ?? 0) * (smallestBytes(resolved.items, root, depth + 1) + 1);
    if (type === 'object') return 2 + Object.entries(resolved.properties ?? {}).reduce((sum, [name, inner]) => sum + name.length + 4 + smallestBytes(inner, root, depth + 1), 0);
    return 1;
  });
  return Math.min(...sizes);
}

/**
 * The schema narrowed for generating: strings and arrays no longer than the schema needs (a
 * maxLength of 100,000 would otherwise fill strings that long), and no null where another type
 * is allowed (an old-dialect optional field allows null; a sample should show a value). A
 * narrower schema's values satisfy the original.
 */
function forGenerating(node: JsonSchemaNode): JsonSchemaNode {
  const narrowed: JsonSchemaNode = { ...node };
  if (Array.isArray(node.type) && node.type.length > 1) narrowed.type = node.type.filter((type) => type !== 'null');
  if (node.enum && node.enum.some((value) => value !== null)) narrowed.enum = node.enum.filter((value) => value !== null);
  if (typesOf(node).includes('string') && node.pattern === undefined && node.format === undefined) narrowed.maxLength = Math.min(node.maxLength ?? Infinity, Math.max(node.minLength ?? 0, SAMPLE_STRING_LENGTH));
  if (typesOf(node).includes('array')) narrowed.maxItems = Math.min(node.maxItems ?? Infinity, Math.max(node.minItems ?? 0, SAMPLE_ARRAY_ITEMS));
  const each = (record: Record<string, JsonSchemaNode> | undefined) => record && Object.fromEntries(Object.entries(record).map(([name, inner]) => [name, forGenerating(inner)]));
  if (node.properties) narrowed.properties = each(node.properties);
  if (node.$defs) narrowed.$defs = each(node.$defs);
  if (typeof node.items === 'object') narrowed.items = forGenerating(node.items);
  if (typeof node.additionalProperties === 'object') narrowed.additionalProperties = forGenerating(node.additionalProperties);
  return narrowed;
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

/**
 * `count` documents that satisfy the schema, every property filled: json-schema-faker generates
 * them (patterns, formats, bounds, enums, references), and free strings get values that look like
 * their field names say (email, name, city, ...). The same seed gives the same samples. Throws
 * SampleDataTooLargeError when the documents' JSON would pass `limitBytes`.
 */
export function generateSamples(schema: TypeSchema, options: { count: number; seed: number; limitBytes: number }): Array<Record<string, unknown>> {
  const generating = forGenerating(schema) as TypeSchema;
  if (smallestBytes(generating, generating, 0) * options.count > options.limitBytes) throw new SampleDataTooLargeError(options.limitBytes);
  const faker = new Faker({ locale: [en] });
  faker.seed(options.seed);
  const samples: Array<Record<string, unknown>> = [];
  let spent = 0;
  for (let index = 0; index < options.count; index += 1) {
    const generated = generateSync(generating as Parameters<typeof generateSync>[0], { seed: faker.number.int({ min: 1, max: 2 ** 31 - 1 }), alwaysFakeOptionals: true, refDepth: REFERENCE_DEPTH });
    const sample = withNameHints(generated, schema, '', schema, faker, 0) as Record<string, unknown>;
    spent += Buffer.byteLength(JSON.stringify(sample));
    if (spent > options.limitBytes) throw new SampleDataTooLargeError(options.limitBytes);
    samples.push(sample);
  }
  return samples;
}
