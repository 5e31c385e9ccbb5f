import { describe, expect, it } from 'vitest';
import { typeSchemaInputSchema, validateDocument } from '@platform/documents';
import { everyKeywordSchema as contact } from '@platform/documents/testing';
import { generateSamples, SampleDataTooLargeError } from './sample-data';

const parse = (schema: unknown) => typeSchemaInputSchema.parse(schema);

describe('sample data (json-schema-faker)', () => {
  const limitBytes = 1024 * 1024;

  it('is valid against its schema for 200 seeds, and the same for the same seed', () => {
    for (let seed = 0; seed < 200; seed += 1) {
      const [sample] = generateSamples(contact, { count: 1, seed, limitBytes });
      expect({ seed, problems: validateDocument(contact, sample as Record<string, unknown>) }).toEqual({ seed, problems: [] });
    }
    const samples = generateSamples(contact, { count: 20, seed: 42, limitBytes });
    expect(generateSamples(contact, { count: 20, seed: 42, limitBytes })).toEqual(samples);
    expect(generateSamples(contact, { count: 20, seed: 43, limitBytes })).not.toEqual(samples);
  });

  it('refuses before generating when the smallest documents pass the byte limit, and stops as soon as generated ones do', () => {
    const long = parse({ type: 'object', properties: { essay: { type: 'string', minLength: 50_000 } } });
    expect(() => generateSamples(long, { count: 100, seed: 1, limitBytes })).toThrow(SampleDataTooLargeError);
    expect(generateSamples(long, { count: 10, seed: 1, limitBytes })).toHaveLength(10);
    const nested = parse({ type: 'object', properties: { rows: { type: 'array', minItems: 1_000, items: { type: 'array', minItems: 1_000, items: { type: 'string', minLength: 100 } } } } });
    const started = performance.now();
    expect(() => generateSamples(nested, { count: 1, seed: 1, limitBytes })).toThrow(SampleDataTooLargeError);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('keeps strings short when only a maximum is given, and numbers inside a maximum given alone', () => {
    const bounded = parse({ fields: { below: { type: 'integer', maximum: -5 }, rating: { type: 'integer', maximum: 5 }, story: { type: 'string', maxLength: 100_000 } } });
    for (const sample of generateSamples(bounded, { count: 20, seed: 3, limitBytes })) {
      expect(validateDocument(bounded, sample)).toEqual([]);
      expect((sample.story as string).length).toBeLessThanOrEqual(200);
    }
  });

  it('fills free strings with values that look like their names say, and matches patterns', () => {
    const people = parse({
      type: 'object',
      properties: {
        email: { type: 'string' },
        firstName: { type: 'string' },
        website: { type: 'string' },
        code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
        price: { type: 'number', minimum: 1 },
      },
    });
    for (const sample of generateSamples(people, { count: 10, seed: 7, limitBytes })) {
      expect(sample.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      expect(sample.firstName).toMatch(/^[A-Z][a-z'-]+/);
      expect(() => new URL(sample.website as string)).not.toThrow();
      expect(sample.code).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
      expect(validateDocument(people, sample)).toEqual([]);
    }
  });
});
