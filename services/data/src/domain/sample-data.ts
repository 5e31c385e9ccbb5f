import { Faker, en } from '@faker-js/faker';
import { matchesPattern } from './patterns';
import type { FieldDefinition, TypeSchema } from './type-schema';

type StringGenerator = (faker: Faker) => string;

/**
 * Realistic values for common field names (matched on the lower-cased name, first hit wins);
 * any other string gets a short sentence fragment.
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

function nameBasedString(name: string, definition: FieldDefinition, faker: Faker): string {
  const lower = name.toLowerCase();
  const generate = stringsByFieldName.find(([pattern]) => pattern.test(lower))?.[1] ?? ((f: Faker) => f.lorem.words({ min: 2, max: 4 }));
  let value = generate(faker);
  const min = definition.minLength ?? 0;
  while (value.length < min) value += ` ${faker.lorem.word()}`;
  return definition.maxLength !== undefined ? value.slice(0, definition.maxLength) : value;
}

/** Faker's generator writes `^` and `$` out literally; a whole-string pattern needs neither. */
function withoutAnchors(pattern: string): string {
  return pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
}

function fitsLength(value: string, definition: FieldDefinition): boolean {
  return value.length >= (definition.minLength ?? 0) && value.length <= (definition.maxLength ?? Infinity);
}

/**
 * The name-based value when it fits the field's pattern; otherwise one generated from the pattern
 * itself. Faker's generator covers common regular expressions, not all: for a pattern it cannot
 * satisfy, the name-based value is returned and the document fails validation on create.
 */
function sampleString(name: string, definition: FieldDefinition, faker: Faker): string {
  const value = nameBasedString(name, definition, faker);
  if (definition.pattern === undefined || matchesPattern(definition.pattern, value)) return value;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      const candidate = faker.helpers.fromRegExp(withoutAnchors(definition.pattern));
      if (fitsLength(candidate, definition) && matchesPattern(definition.pattern, candidate)) return candidate;
    } catch {
      break; // syntax the generator does not support
    }
  }
  return value;
}

function sampleNumber(name: string, definition: FieldDefinition, faker: Faker): number {
  const lower = name.toLowerCase();
  const span = /price|amount|cost|total/.test(lower) ? 500 : /age/.test(lower) ? 90 : 1000;
  // With only a maximum, the range ends there (a default minimum of 0 could lie above it).
  const min = definition.minimum ?? (definition.maximum !== undefined && definition.maximum < 0 ? definition.maximum - span : 0);
  const max = definition.maximum ?? min + span;
  const value = definition.type === 'number' ? faker.number.float({ min, max, fractionDigits: 2 }) : faker.number.int({ min: Math.ceil(min), max: Math.floor(max) });
  // Faker overflows on ranges wider than a double holds; a value inside the bounds still fits.
  return Number.isFinite(value) ? value : Math.min(Math.max(0, Math.ceil(min)), Math.floor(max));
}

function sampleTimestamp(definition: FieldDefinition, faker: Faker, now: number): number {
  if (definition.minimum === undefined && definition.maximum === undefined) return faker.date.recent({ days: 30, refDate: now }).getTime();
  return sampleNumber('timestamp', { ...definition, minimum: definition.minimum ?? (definition.maximum as number) - 30 * 86_400_000, maximum: definition.maximum ?? (definition.minimum as number) + 30 * 86_400_000 }, faker);
}

/** The answer would be larger than its limit: thrown as soon as the generated values pass it. */
export class SampleDataTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the sample documents would be larger than ${limitBytes} bytes`);
    this.name = 'SampleDataTooLargeError';
  }
}

/** Counts the bytes of generated values, so an oversized request stops early instead of building it all. */
class SampleBudget {
  private spent = 0;

  constructor(private readonly limitBytes: number) {}

  spend(name: string, value: unknown): void {
    this.spent += Buffer.byteLength(JSON.stringify(value)) + name.length + 4;
    if (this.spent > this.limitBytes) throw new SampleDataTooLargeError(this.limitBytes);
  }
}

interface Generation {
  faker: Faker;
  now: number;
  budget: SampleBudget;
}

function sampleValue(name: string, definition: FieldDefinition, generation: Generation): unknown {
  const { faker, now, budget } = generation;
  const leaf = (value: unknown): unknown => {
    budget.spend(name, value);
    return value;
  };
  if (definition.enum) return leaf(faker.helpers.arrayElement(definition.enum));
  switch (definition.type) {
    case 'string':
      return leaf(sampleString(name, definition, faker));
    case 'number':
    case 'integer':
      return leaf(sampleNumber(name, definition, faker));
    case 'timestamp':
      return leaf(sampleTimestamp(definition, faker, now));
    case 'boolean':
      return leaf(faker.datatype.boolean());
    case 'array':
      return definition.items ? Array.from({ length: faker.number.int({ min: 1, max: 3 }) }, () => sampleValue(name, definition.items as FieldDefinition, generation)) : leaf([]);
    case 'object':
      return definition.fields ? sampleDocument({ fields: definition.fields }, generation) : leaf({});
  }
}

function sampleDocument(schema: TypeSchema, generation: Generation): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.fields).map(([name, definition]) => [name, sampleValue(name, definition, generation)]));
}

/**
 * `count` realistic documents that satisfy the schema (every field filled, constraints and
 * patterns respected), generated with Faker from the field names. The same seed gives the same
 * samples, so previews are repeatable and testable. Throws SampleDataTooLargeError once the
 * documents' JSON passes `limitBytes`.
 */
export function generateSamples(schema: TypeSchema, options: { count: number; seed: number; now: number; limitBytes: number }): Array<Record<string, unknown>> {
  const faker = new Faker({ locale: [en] });
  faker.seed(options.seed);
  const generation: Generation = { faker, now: options.now, budget: new SampleBudget(options.limitBytes) };
  return Array.from({ length: options.count }, () => sampleDocument(schema, generation));
}
