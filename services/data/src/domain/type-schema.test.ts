import { describe, expect, it } from 'vitest';
import { generateSamples } from './sample-data';
import { typeSchemaSchema, validateDocument, type TypeSchema } from './type-schema';

const schema: TypeSchema = typeSchemaSchema.parse({
  fields: {
    title: { type: 'string', required: true, minLength: 2, maxLength: 40 },
    email: { type: 'string', pattern: '^[^@]+@[^@]+$' },
    rating: { type: 'integer', minimum: 1, maximum: 5 },
    status: { type: 'string', enum: ['open', 'closed'] },
    done: { type: 'boolean' },
    due: { type: 'timestamp' },
    tags: { type: 'array', items: { type: 'string' } },
    address: { type: 'object', fields: { city: { type: 'string', required: true } } },
  },
});

describe('type schema validation', () => {
  it('accepts a matching document and extra fields', () => {
    expect(validateDocument(schema, { title: 'Hello', email: 'a@b', rating: 3, status: 'open', done: false, due: 1, tags: ['x'], address: { city: 'Bonn' }, extra: 1 })).toEqual([]);
  });

  it.each([
    ['title', {}],
    ['title', { title: 'x' }],
    ['title', { title: 7 }],
    ['email', { title: 'ok', email: 'nope' }],
    ['rating', { title: 'ok', rating: 9 }],
    ['rating', { title: 'ok', rating: 2.5 }],
    ['status', { title: 'ok', status: 'pending' }],
    ['done', { title: 'ok', done: 'yes' }],
    ['tags.1', { title: 'ok', tags: ['a', 2] }],
    ['address.city', { title: 'ok', address: {} }],
    ['address', { title: 'ok', address: [] }],
  ])('names %s for %j', (field, document) => {
    expect(validateDocument(schema, document).map((p) => p.field)).toContain(field);
  });

  it('rejects malformed schemas', () => {
    expect(typeSchemaSchema.safeParse({ fields: { title: { type: 'text' } } }).success).toBe(false);
    expect(typeSchemaSchema.safeParse({ fields: { '1bad': { type: 'string' } } }).success).toBe(false);
    expect(typeSchemaSchema.safeParse({ fields: { title: { type: 'string', pattern: '(' } } }).success).toBe(false);
    expect(typeSchemaSchema.safeParse({ fields: { title: { type: 'string', unknown: true } } }).success).toBe(false);
  });
});

describe('sample data', () => {
  it('generates documents that satisfy their schema, the same for the same seed', () => {
    const samples = generateSamples(schema, 20, 42, Date.UTC(2026, 0, 1));
    expect(samples).toHaveLength(20);
    for (const sample of samples) expect(validateDocument(schema, sample)).toEqual([]);
    expect(generateSamples(schema, 20, 42, Date.UTC(2026, 0, 1))).toEqual(samples);
    expect(generateSamples(schema, 20, 43, Date.UTC(2026, 0, 1))).not.toEqual(samples);
  });

  it('fills fields with values that look like their names say, and matches patterns', () => {
    const people = typeSchemaSchema.parse({
      fields: {
        email: { type: 'string' },
        firstName: { type: 'string' },
        website: { type: 'string' },
        code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
        price: { type: 'number', minimum: 1 },
      },
    });
    for (const sample of generateSamples(people, 10, 7, Date.UTC(2026, 0, 1))) {
      expect(sample.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      expect(sample.firstName).toMatch(/^[A-Z][a-z'-]+/);
      expect(() => new URL(sample.website as string)).not.toThrow();
      expect(sample.code).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
      expect(validateDocument(people, sample)).toEqual([]);
    }
  });
});
