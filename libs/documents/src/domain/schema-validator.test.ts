import { describe, expect, it } from 'vitest';
import { pinTypeSchema, validateDocument } from './schema-validator';

const fieldsOf = (schema: unknown, document: Record<string, unknown>) => validateDocument(schema, document).map((problem) => problem.field);

describe('pinned type schemas', () => {
  it('are frozen all the way down, so the object validated against can never hold another schema', () => {
    const schema = pinTypeSchema({ type: 'object', properties: { n: { type: 'integer', maximum: 5 } }, required: ['n'] });
    expect(fieldsOf(schema, { n: 6 })).toEqual(['n']);
    expect(() => {
      (schema.properties.n as { maximum: number }).maximum = 10;
    }).toThrow(TypeError);
    expect(() => schema.required.push('m')).toThrow(TypeError);
    expect(fieldsOf(schema, { n: 6 })).toEqual(['n']);
  });

  it('each give their own verdicts, however validations of several alternate', () => {
    const atMostFive = pinTypeSchema({ type: 'object', properties: { n: { type: 'integer', maximum: 5 } } });
    const atLeastFive = pinTypeSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 5 } } });
    const unpinned = { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } };
    for (let round = 0; round < 3; round += 1) {
      expect(fieldsOf(atMostFive, { n: 6 })).toEqual(['n']);
      expect(fieldsOf(atLeastFive, { n: 6 })).toEqual([]);
      expect(fieldsOf(atLeastFive, { n: 4 })).toEqual(['n']);
      expect(fieldsOf(unpinned, { n: 6 })).toEqual(['n']);
    }
  });

  it('keep their validator, references included, after the cache by schema text has dropped it', () => {
    const schema = pinTypeSchema({ type: 'object', $defs: { code: { type: 'string', pattern: '^x+$' } }, properties: { n: { type: 'integer', maximum: 5 }, code: { $ref: '#/$defs/code' } } });
    expect(fieldsOf(schema, { n: 6 })).toEqual(['n']);
    for (let index = 0; index < 600; index += 1) validateDocument({ type: 'object', properties: { [`field${index}`]: { type: 'integer' } } }, {});
    expect(fieldsOf(schema, { n: 6 })).toEqual(['n']);
    expect(fieldsOf(schema, { n: 1, code: 'y' })).toEqual(['code']);
    expect(fieldsOf(schema, { n: 1, code: 'xx' })).toEqual([]);
  });

  it('read an old-dialect schema as its JSON Schema, and fail closed on one Ajv cannot compile', () => {
    expect(fieldsOf(pinTypeSchema({ fields: { rating: { type: 'integer', maximum: 5, required: true } } }), {})).toEqual(['rating']);
    const dangling = pinTypeSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    expect(validateDocument(dangling, { a: 1 })).toEqual([{ field: 'schema', message: expect.stringContaining('change the type schema') }]);
  });
});

describe('pattern work', () => {
  const codes = { type: 'object', properties: { a: { type: 'string', pattern: '^a+$' }, b: { type: 'string', pattern: '^b+$' }, list: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } } };

  it('checks each pattern with its own expression', () => {
    expect(fieldsOf(codes, { a: 'aaa', b: 'bbb' })).toEqual([]);
    expect(fieldsOf(codes, { a: 'aaa', b: 'aaa' })).toEqual(['b']);
    expect(fieldsOf(codes, { a: 'bbb', b: 'bbb' })).toEqual(['a']);
  });

  it('fails a value unchecked, naming it, once the document would pass its pattern work; each document has its own', () => {
    // '^(a+)+$' has 9 instructions: 10 values of 99 characters take 9,000 steps.
    const list = Array.from({ length: 10 }, () => 'a'.repeat(99));
    expect(validateDocument(codes, { list }, { patternWorkLimit: 9_000 })).toEqual([]);
    expect(validateDocument(codes, { list: [...list, 'a'] }, { patternWorkLimit: 9_000 })).toEqual([{ field: 'list.10', message: expect.stringContaining('too long to check against its pattern') }]);
    expect(validateDocument(codes, { list: ['a'.repeat(1_000)] }, { patternWorkLimit: 9_000 })).toEqual([{ field: 'list.0', message: expect.stringContaining('9000 steps') }]);
    expect(validateDocument(codes, { list }, { patternWorkLimit: 9_000 })).toEqual([]);
  });
});
