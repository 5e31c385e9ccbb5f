import { describe, expect, it } from 'vitest';
import { generateSamples, SampleDataTooLargeError } from './sample-data';
import { typeSchemaSchema, validateDocument, ValidationBudgetExceededError, type TypeSchema } from './type-schema';

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

const issuePaths = (candidate: unknown) => {
  const result = typeSchemaSchema.safeParse(candidate);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('type schema rules', () => {
  it('refuses patterns the linear-time engine cannot run, naming the pattern', () => {
    for (const pattern of ['^(?=a)a$', '^(?!a)', '(a)\\1', '(?<=a)b', 'a{1001}']) {
      expect({ pattern, paths: issuePaths({ fields: { code: { type: 'string', pattern } } }) }).toEqual({ pattern, paths: ['fields.code.pattern'] });
    }
    expect(issuePaths({ fields: { code: { type: 'string', pattern: '^(a+)+$' } } })).toEqual([]);
  });

  it('refuses bounds no value satisfies and lengths past 100,000, also in nested fields', () => {
    expect(issuePaths({ fields: { n: { type: 'number', minimum: 2, maximum: 1 } } })).toEqual(['fields.n.minimum']);
    expect(issuePaths({ fields: { n: { type: 'integer', minimum: 1.1, maximum: 1.9 } } })).toEqual(['fields.n.minimum']);
    expect(issuePaths({ fields: { n: { type: 'number', minimum: 1.1, maximum: 1.9 } } })).toEqual([]);
    expect(issuePaths({ fields: { s: { type: 'string', minLength: 3, maxLength: 2 } } })).toEqual(['fields.s.minLength']);
    expect(issuePaths({ fields: { s: { type: 'string', maxLength: 100_001 } } })).toEqual(['fields.s.maxLength']);
    expect(issuePaths({ fields: { o: { type: 'object', fields: { s: { type: 'string', minLength: 1_000_000 } } } } })).toEqual(['fields.o.fields.s.minLength']);
  });

  it('refuses reserved top-level field names, not the same names nested', () => {
    expect(issuePaths({ fields: { access: { type: 'object' }, deleteOn: { type: 'timestamp' }, id: { type: 'string' } } })).toEqual(['fields.access', 'fields.deleteOn', 'fields.id']);
    expect(issuePaths({ fields: { meta: { type: 'object', fields: { access: { type: 'string' } } } } })).toEqual([]);
  });
});

describe('validation time budget', () => {
  it('stops with the field it reached once the CPU time spent passes the budget', () => {
    const list = typeSchemaSchema.parse({ fields: { tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } } });
    const clock = (step: number) => {
      let spent = 0;
      return () => (spent += step);
    };
    const run = (count: number, step: number) => validateDocument(list, { tags: Array.from({ length: count }, () => 'a') }, { budgetMs: 45, cpuMs: clock(step) });
    expect(() => run(200, 20)).toThrow(ValidationBudgetExceededError);
    expect(() => run(200, 20)).toThrow(expect.objectContaining({ field: expect.stringMatching(/^tags\.\d+$/), budgetMs: 45 }));
    expect(run(200, 1)).toEqual([]);
    expect(run(20, 1_000)).toEqual([]);
  });
});

describe('sample data', () => {
  it('stops as soon as the documents pass the byte limit', () => {
    const long = typeSchemaSchema.parse({ fields: { essay: { type: 'string', minLength: 50_000 } } });
    expect(() => generateSamples(long, { count: 100, seed: 1, now: 0, limitBytes: 1024 * 1024 })).toThrow(SampleDataTooLargeError);
    expect(generateSamples(long, { count: 10, seed: 1, now: 0, limitBytes: 1024 * 1024 })).toHaveLength(10);
  });

  it('keeps numbers and timestamps inside a maximum given alone', () => {
    const bounded = typeSchemaSchema.parse({ fields: { below: { type: 'integer', maximum: -5 }, rating: { type: 'integer', maximum: 5 }, due: { type: 'timestamp', maximum: 1_000_000 } } });
    for (const sample of generateSamples(bounded, { count: 20, seed: 3, now: Date.UTC(2026, 0, 1), limitBytes: 1024 * 1024 })) expect(validateDocument(bounded, sample)).toEqual([]);
  });

  it('generates documents that satisfy their schema, the same for the same seed', () => {
    const samples = generateSamples(schema, { count: 20, seed: 42, now: Date.UTC(2026, 0, 1), limitBytes: 1024 * 1024 });
    expect(samples).toHaveLength(20);
    for (const sample of samples) expect(validateDocument(schema, sample)).toEqual([]);
    expect(generateSamples(schema, { count: 20, seed: 42, now: Date.UTC(2026, 0, 1), limitBytes: 1024 * 1024 })).toEqual(samples);
    expect(generateSamples(schema, { count: 20, seed: 43, now: Date.UTC(2026, 0, 1), limitBytes: 1024 * 1024 })).not.toEqual(samples);
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
    for (const sample of generateSamples(people, { count: 10, seed: 7, now: Date.UTC(2026, 0, 1), limitBytes: 1024 * 1024 })) {
      expect(sample.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      expect(sample.firstName).toMatch(/^[A-Z][a-z'-]+/);
      expect(() => new URL(sample.website as string)).not.toThrow();
      expect(sample.code).toMatch(/^[A-Z]{3}-[0-9]{4}$/);
      expect(validateDocument(people, sample)).toEqual([]);
    }
  });
});
