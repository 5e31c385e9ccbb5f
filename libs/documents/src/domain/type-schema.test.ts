import { describe, expect, it } from 'vitest';
import { jsonSchemaFromLegacy, type LegacyFieldDefinition } from './legacy-type-schema';
import { validateDocument } from './schema-validator';
import { ValidationBudgetExceededError } from './validation-budget';
import type { TypeSchema } from './type-schema';
import { typeSchemaInputSchema } from './type-schema-input';
import { everyKeywordSchema as contact } from '../testing';

const parse = (schema: unknown) => typeSchemaInputSchema.parse(schema);
const issuePaths = (candidate: unknown) => {
  const result = typeSchemaInputSchema.safeParse(candidate);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};
const fieldsOf = (schema: TypeSchema, document: Record<string, unknown>) => validateDocument(schema, document).map((problem) => problem.field);

describe('validating documents with JSON Schema (Ajv)', () => {
  it('accepts a matching document, extra top-level fields and the reserved ones it does not govern', () => {
    const document = { title: 'Hello', email: 'a@example.org', code: 'ABC-12', rating: 3, price: 9.99, status: 'open', kind: 'contact', done: false, note: null, born: '2001-02-03', tags: ['x'], address: { city: 'Bonn' }, places: [{ city: 'Köln' }], extra: 1 };
    expect(validateDocument(contact, { ...document, access: { read: { userIds: ['a'] } }, deleteOn: 5 })).toEqual([]);
  });

  it('leaves the reserved fields out of a closed schema, and governs one a schema stored before the rule names', () => {
    const closed = parse({ type: 'object', properties: { title: { type: 'string' } }, additionalProperties: false });
    expect(validateDocument(closed, { title: 'Hello', access: { read: { userIds: ['a'] } }, deleteOn: 5 })).toEqual([]);
    expect(fieldsOf(closed, { title: 'Hello', access: {}, extra: 1 })).toEqual(['extra']);
    const namingReserved = { type: 'object', properties: { deleteOn: { type: 'integer' } }, additionalProperties: false } as TypeSchema;
    expect(fieldsOf(namingReserved, { deleteOn: 'soon' })).toEqual(['deleteOn']);
  });

  it.each([
    ['title', { rating: 3 }, 'is required', 'required', { missingProperty: 'title' }],
    ['title', { title: 'x' }, 'must NOT have fewer than 2 characters', 'minLength', { limit: 2 }],
    ['title', { title: 7 }, 'must be string', 'type', { type: 'string' }],
    ['email', { title: 'ok', email: 'nope' }, 'must match format "email"', 'format', { format: 'email' }],
    ['email', { title: 'ok', email: `${'a'.repeat(3_000)}@example.org` }, 'must match format "email"', 'format', { format: 'email' }],
    ['code', { title: 'ok', code: 'abc-12' }, 'must match pattern "^[A-Z]{3}-[0-9]{2}$"', 'pattern', { pattern: '^[A-Z]{3}-[0-9]{2}$' }],
    ['rating', { title: 'ok', rating: 9 }, 'must be <= 5', 'maximum', { comparison: '<=', limit: 5 }],
    ['rating', { title: 'ok', rating: 2.5 }, 'must be integer', 'type', { type: 'integer' }],
    ['price', { title: 'ok', price: 0 }, 'must be > 0', 'exclusiveMinimum', { comparison: '>', limit: 0 }],
    ['price', { title: 'ok', price: 1.001 }, 'must be multiple of 0.01', 'multipleOf', { multipleOf: 0.01 }],
    ['status', { title: 'ok', status: 'pending' }, 'must be equal to one of the allowed values', 'enum', { allowedValues: expect.arrayContaining(['open']) }],
    ['kind', { title: 'ok', kind: 'lead' }, 'must be equal to constant', 'const', { allowedValue: 'contact' }],
    ['done', { title: 'ok', done: 'yes' }, 'must be boolean', 'type', { type: 'boolean' }],
    ['born', { title: 'ok', born: '2001-13-45' }, 'must match format "date"', 'format', { format: 'date' }],
    ['tags', { title: 'ok', tags: ['a', 'b', 'c', 'd'] }, 'must NOT have more than 3 items', 'maxItems', { limit: 3 }],
    ['tags.1', { title: 'ok', tags: ['a', 2] }, 'must be string', 'type', { type: 'string' }],
    ['address.city', { title: 'ok', address: {} }, 'is required', 'required', { missingProperty: 'city' }],
    ['address', { title: 'ok', address: [] }, 'must be object', 'type', { type: 'object' }],
    ['address.zip', { title: 'ok', address: { city: 'Bonn', zip: '1' } }, 'is not a field of this type', 'additionalProperties', { additionalProperty: 'zip' }],
    ['places.1.city', { title: 'ok', places: [{ city: 'Bonn' }, { city: 3 }] }, 'must be string', 'type', { type: 'string' }],
  ])('names %s for %j, with the keyword it fails and that keyword\'s parameters', (field, document, message, keyword, params) => {
    expect(validateDocument(contact, document)).toEqual([{ field, message, keyword, params }]);
  });

  it('runs patterns on RE2: a catastrophic-backtracking pattern answers at once', () => {
    const evil = parse({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
    const started = performance.now();
    expect(fieldsOf(evil, { code: `${'a'.repeat(50_000)}!` })).toEqual(['code']);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('type schemas refused when saved', () => {
  it.each([
    ['not an object root', { type: 'array' }, 'type'],
    ['an unknown keyword', { type: 'object', properties: { a: { type: 'string', minimumLength: 2 } } }, 'properties.a'],
    ['composition outside the subset', { type: 'object', properties: { a: { anyOf: [{ type: 'string' }] } } }, 'properties.a'],
    ['an unknown type', { type: 'object', properties: { a: { type: 'text' } } }, 'properties.a.type'],
    ['a remote $ref', { type: 'object', properties: { a: { $ref: 'https://example.org/schema.json' } } }, 'properties.a.$ref'],
    ['a relative file $ref', { type: 'object', properties: { a: { $ref: 'other.json#/a' } } }, 'properties.a.$ref'],
    ['an $id', { type: 'object', $id: 'https://example.org/a' }, ''],
    ['a reference that does not resolve', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, ''],
    ['another draft', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, '$schema'],
    ['a lookahead', { type: 'object', properties: { a: { type: 'string', pattern: '^(?=a)a$' } } }, 'properties.a.pattern'],
    ['a backreference', { type: 'object', properties: { a: { type: 'string', pattern: '(a)\\1' } } }, 'properties.a.pattern'],
    ['an unchecked format', { type: 'object', properties: { a: { type: 'string', format: 'regex' } } }, 'properties.a.format'],
    ['a bad field name', { type: 'object', properties: { 'a.b': { type: 'string' } } }, 'properties.a.b'],
    ['minLength above maxLength', { type: 'object', properties: { a: { type: 'string', minLength: 3, maxLength: 2 } } }, 'properties.a.minLength'],
    ['a length past 100,000', { type: 'object', properties: { a: { type: 'string', maxLength: 100_001 } } }, 'properties.a.maxLength'],
    ['minItems above maxItems', { type: 'object', properties: { a: { type: 'array', minItems: 3, maxItems: 2 } } }, 'properties.a.minItems'],
    ['minimum above maximum', { type: 'object', properties: { a: { type: 'number', minimum: 2, maximum: 1 } } }, 'properties.a.minimum'],
    ['no whole number in range', { type: 'object', properties: { a: { type: 'integer', minimum: 1.1, maximum: 1.9 } } }, 'properties.a.minimum'],
    ['an empty exclusive range', { type: 'object', properties: { a: { type: 'number', exclusiveMinimum: 1, maximum: 1 } } }, 'properties.a.exclusiveMinimum'],
    ['nested bounds', { type: 'object', properties: { o: { type: 'object', properties: { s: { type: 'string', minLength: 1_000_000 } } } } }, 'properties.o.properties.s.minLength'],
    ['a reserved top-level name', { type: 'object', properties: { access: { type: 'object' } } }, 'properties.access'],
    ['references that refer to each other alone', { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } }, 'properties.x.$ref'],
    ['a root that refers to itself', { type: 'object', $ref: '#' }, '$ref'],
  ])('refuses %s', (_case, schema, path) => {
    expect(issuePaths(schema)).toContain(path);
  });

  it('allows a recursive schema through a property or an item (a tree), and checks values all the way down', () => {
    const tree = parse({ type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } }, parent: { $ref: '#' } } });
    expect(fieldsOf(tree, { name: 'root', children: [{ name: 'leaf', children: [] }], parent: { name: 'up' } })).toEqual([]);
    expect(fieldsOf(tree, { name: 'root', children: [{ name: 'leaf', children: [{ name: 3 }] }] })).toEqual(['children.0.children.0.name']);
  });

  it('fails closed, without a crash, on a cycle of references stored before such schemas were refused', () => {
    const stored = { type: 'object', properties: { x: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } } as TypeSchema;
    expect(fieldsOf(stored, { x: 1 })).toEqual(['schema']);
  });

  it('allows reserved names nested, and number ranges with room', () => {
    expect(issuePaths({ type: 'object', properties: { meta: { type: 'object', properties: { access: { type: 'string' } } }, n: { type: 'number', minimum: 1.1, maximum: 1.9 } } })).toEqual([]);
  });
});

/**
 * Every rule of the old dialect, the documents it accepted and refused (the verdicts of the
 * hand-written validator it replaces), and the same verdicts from its JSON Schema.
 */
const legacyRules: Array<[rule: string, field: LegacyFieldDefinition, accepted: unknown[], refused: unknown[]]> = [
  ['string', { type: 'string' }, ['a', '', null, undefined], [1, true, {}, []]],
  ['required', { type: 'string', required: true }, ['a', ''], [null, undefined, 1]],
  ['minLength/maxLength', { type: 'string', minLength: 2, maxLength: 3 }, ['ab', 'abc', null], ['a', 'abcd']],
  ['pattern', { type: 'string', pattern: '^[a-z]+$' }, ['abc', null], ['ABC', 'ab1', '']],
  ['number with bounds', { type: 'number', minimum: 1.5, maximum: 2.5 }, [1.5, 2, 2.5, null], [1, 3, '2']],
  ['integer', { type: 'integer', minimum: 0 }, [0, 7, null], [1.5, -1, '1']],
  ['timestamp', { type: 'timestamp', maximum: 1_000 }, [0, 1_000, null], [1.5, 1_001, 'now']],
  ['boolean', { type: 'boolean' }, [true, false, null], ['true', 0]],
  ['enum', { type: 'string', enum: ['a', 'b'] }, ['a', 'b', null], ['c', 1]],
  ['numeric enum', { type: 'integer', enum: [1, 2], required: true }, [1, 2], [3, null]],
  ['array with items', { type: 'array', items: { type: 'string', pattern: '^x' } }, [[], ['x1', 'x2'], null], [['y'], [null], 'x', [1]]],
  ['array without items', { type: 'array' }, [[], [1, 'a'], null], [{}, 'a']],
  ['object with fields', { type: 'object', fields: { city: { type: 'string', required: true }, zip: { type: 'string' } } }, [{ city: 'Bonn' }, { city: 'Bonn', zip: null, extra: 1 }, null], [{}, { city: null }, { city: 'Bonn', zip: 1 }, []]],
  ['object without fields', { type: 'object' }, [{}, { a: 1 }, null], [[], 'a']],
];

describe('migrating old-dialect schemas', () => {
  it.each(legacyRules)('%s gives the old verdicts as JSON Schema', (_rule, field, accepted, refused) => {
    const schema = jsonSchemaFromLegacy({ fields: { value: field } });
    expect(typeSchemaInputSchema.safeParse(schema).success).toBe(true);
    const document = (value: unknown) => (value === undefined ? {} : { value });
    for (const value of accepted) expect({ value, problems: validateDocument(schema, document(value)) }).toEqual({ value, problems: [] });
    for (const value of refused) expect({ value, fields: fieldsOf(schema, document(value)) }).toEqual({ value, fields: [expect.stringMatching(/^value/)] });
  });

  it('converts the old shape on input, checked by its own rules and naming its paths', () => {
    expect(parse({ fields: { title: { type: 'string', required: true, title: 'Title' }, due: { type: 'timestamp', description: 'When' } } })).toEqual({
      type: 'object',
      properties: { title: { type: 'string', title: 'Title' }, due: { type: ['integer', 'null'], description: 'Unix time in milliseconds. When' } },
      required: ['title'],
    });
    expect(issuePaths({ fields: { code: { type: 'string', pattern: '(a)\\1' } } })).toEqual(['fields.code.pattern']);
    expect(issuePaths({ fields: { deleteOn: { type: 'timestamp' } } })).toEqual(['fields.deleteOn']);
    expect(issuePaths({ fields: { n: { type: 'integer', minimum: 2, maximum: 1 } } })).toEqual(['fields.n.minimum']);
  });

  it('reads a stored old-dialect schema as its JSON Schema, and fails closed on a pattern RE2 cannot run', () => {
    expect(fieldsOf({ fields: { rating: { type: 'integer', maximum: 5 } } } as unknown as TypeSchema, { rating: 6 })).toEqual(['rating']);
    expect(validateDocument({ fields: { code: { type: 'string', pattern: '(?=a)' } } }, { code: 'a' })).toEqual([{ field: 'schema', message: expect.stringContaining('change the type schema') }]);
  });
});

describe('validation time budget', () => {
  it('stops with the field it reached once the CPU time spent passes the budget', () => {
    const list = parse({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } } });
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

  it('names the nested field it reached inside a referenced definition', () => {
    const groups = parse({
      type: 'object',
      $defs: { group: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } },
      properties: { groups: { type: 'array', items: { $ref: '#/$defs/group' } } },
    });
    let spent = 0;
    const document = { groups: [{ tags: Array.from({ length: 100 }, () => 'a') }] };
    expect(() => validateDocument(groups, document, { budgetMs: 45, cpuMs: () => (spent += 20) })).toThrow(expect.objectContaining({ field: expect.stringMatching(/^groups\.0\.tags\.\d+$/) }));
  });
});
