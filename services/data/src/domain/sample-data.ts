import { Faker, en } from '@faker-js/faker';
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

/**
 * The name-based value when it fits the field's pattern; otherwise one generated from the pattern
 * itself. Faker's generator covers common regular expressions, not all: for a pattern it cannot
 * satisfy, the name-based value is returned and the document fails validation on create.
 */
function sampleString(name: string, definition: FieldDefinition, faker: Faker): string {
  const value = nameBasedString(name, definition, faker);
  if (definition.pattern === undefined) return value;
  const pattern = new RegExp(definition.pattern);
  if (pattern.test(value)) return value;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      const candidate = faker.helpers.fromRegExp(withoutAnchors(definition.pattern));
      if (pattern.test(candidate)) return candidate;
    } catch {
      break; // syntax the generator does not support
    }
  }
  return value;
}

function sampleNumber(name: string, definition: FieldDefinition, faker: Faker): number {
  const lower = name.toLowerCase();
  const min = definition.minimum ?? 0;
  const max = definition.maximum ?? (/price|amount|cost|total/.test(lower) ? min + 500 : /age/.test(lower) ? min + 90 : min + 1000);
  if (definition.type === 'integer') return faker.number.int({ min: Math.ceil(min), max: Math.floor(max) });
  return faker.number.float({ min, max, fractionDigits: 2 });
}

function sampleValue(name: string, definition: FieldDefinition, faker: Faker, now: number): unknown {
  if (definition.enum) return faker.helpers.arrayElement(definition.enum);
  switch (definition.type) {
    case 'string':
      return sampleString(name, definition, faker);
    case 'number':
    case 'integer':
      return sampleNumber(name, definition, faker);
    case 'timestamp':
      return faker.date.recent({ days: 30, refDate: now }).getTime();
    case 'boolean':
      return faker.datatype.boolean();
    case 'array':
      return definition.items ? Array.from({ length: faker.number.int({ min: 1, max: 3 }) }, () => sampleValue(name, definition.items as FieldDefinition, faker, now)) : [];
    case 'object':
      return definition.fields ? sampleDocument({ fields: definition.fields }, faker, now) : {};
  }
}

function sampleDocument(schema: TypeSchema, faker: Faker, now: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.fields).map(([name, definition]) => [name, sampleValue(name, definition, faker, now)]));
}

/**
 * `count` realistic documents that satisfy the schema (every field filled, constraints and
 * patterns respected), generated with Faker from the field names. The same seed gives the same
 * samples, so previews are repeatable and testable.
 */
export function generateSamples(schema: TypeSchema, count: number, seed: number, now: number): Array<Record<string, unknown>> {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  return Array.from({ length: count }, () => sampleDocument(schema, faker, now));
}
