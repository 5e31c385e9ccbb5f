import { describe, expect, it } from 'vitest';
import { typeSchemaInputSchema, validateDocument } from '@platform/documents';
import { everyKeywordSchema as contact } from '@platform/documents/testing';
import { estimateSampleBytes, generateSamples, SampleDataInvalidError, SampleDataTooLargeError, SampleSchemaTooComplexError } from './sample-data';

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
    // Refused by its estimate, before anything of its 100 MB is generated.
    expect(estimateSampleBytes(nested).bytes).toBeGreaterThan(limitBytes);
    expect(() => generateSamples(nested, { count: 1, seed: 1, limitBytes })).toThrow(SampleDataTooLargeError);
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

  it('estimates untyped nodes and type unions by their largest possibility, and arrays at any depth', () => {
    const strings = { type: 'string', minLength: 1_000 };
    expect(estimateSampleBytes(parse({ type: 'object', properties: { x: { minItems: 100, items: strings } } })).bytes).toBeGreaterThan(100_000);
    expect(estimateSampleBytes(parse({ type: 'object', properties: { x: { type: ['boolean', 'array'], minItems: 100, items: strings } } })).bytes).toBeGreaterThan(100_000);
    const deep = [1, 2, 3, 4, 5, 6, 7, 8].reduce<Record<string, unknown>>((items) => ({ type: 'array', minItems: 1, items }), { type: 'array', minItems: 100, items: strings });
    expect(estimateSampleBytes(parse({ type: 'object', properties: { x: deep } })).bytes).toBeGreaterThan(100_000);
  });

  it('sizes each (node, references left) pair once, and refuses past its node budget', () => {
    const fanout = (width: number) =>
      parse({ type: 'object', properties: { root: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'object', properties: Object.fromEntries(Array.from({ length: width }, (_, index) => [`p${index}`, { $ref: '#/$defs/n' }])) } } });
    const wide = estimateSampleBytes(fanout(60));
    // Each pair once: a few visits per property and reference level, where walking the tree would make 60 ** 4.
    expect(wide.visits).toBeLessThan(60 * 10);
    expect(wide.bytes).toBeGreaterThan(60 ** 4);
    // Linear in the width: twice the properties, about twice the visits (not 2^5 times).
    expect(estimateSampleBytes(fanout(120)).visits).toBeLessThan(wide.visits * 2.5);
    expect(() => estimateSampleBytes(fanout(60), 100)).toThrow(SampleSchemaTooComplexError);
    expect(() => generateSamples(fanout(60), { count: 1, seed: 1, limitBytes, nodeBudget: 100 })).toThrow(SampleSchemaTooComplexError);
  });

  it('stops generating past its time budget', () => {
    const many = parse({ type: 'object', properties: { rows: { type: 'array', minItems: 2_000, items: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'boolean' } } } } } });
    expect(() => generateSamples(many, { count: 20, seed: 1, limitBytes, timeBudgetMs: 1 })).toThrow(SampleSchemaTooComplexError);
    expect(generateSamples(many, { count: 1, seed: 1, limitBytes })).toHaveLength(1);
  });

  it('generates again until validation passes, and reports the last problems when it never does', () => {
    const names = parse({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    let calls = 0;
    const samples = generateSamples(names, { count: 1, seed: 1, limitBytes, validate: () => (++calls < 3 ? [{ field: 'name', message: 'no' }] : []) });
    expect({ samples: samples.length, calls }).toEqual({ samples: 1, calls: 3 });
    const code = parse({ type: 'object', properties: { code: { type: 'string', pattern: '^[a-z]+$', minLength: 12 } }, required: ['code'] });
    expect(() => generateSamples(code, { count: 1, seed: 1, limitBytes, validate: (sample) => validateDocument(code, sample) })).toThrow(SampleDataInvalidError);
  });

  it('gives integers with a fractional multipleOf whole multiples, and leaves values past the reference depth out', () => {
    const schema = parse({
      type: 'object',
      properties: { step: { type: 'integer', multipleOf: 0.3, minimum: 0, maximum: 100 }, tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { label: { type: 'string' }, child: { $ref: '#/$defs/node' } } } },
    });
    for (const sample of generateSamples(schema, { count: 20, seed: 5, limitBytes })) expect(validateDocument(schema, sample)).toEqual([]);
  });
});
