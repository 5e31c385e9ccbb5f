import { describe, expect, it } from 'vitest';
import { copyJson } from './copy-json';

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

const samples: Array<[string, unknown]> = [
  ['a stored document', { id: 'a', revision: 3, title: 'T', tags: ['x', 'y'], nested: { deep: [{ n: 1 }, { n: null }] }, access: { read: { userIds: ['u'] } } }],
  ['scalars', [0, -0, 1.5, -7, 'text', '', true, false, null]],
  ['non-finite numbers', { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, list: [Number.NEGATIVE_INFINITY] }],
  ['values JSON leaves out of objects', { gone: undefined, fn: () => 1, sym: Symbol('s'), kept: 1 }],
  ['values JSON writes as null in arrays', [undefined, () => 1, Symbol('s'), 2]],
  ['a sparse array', [1, , 3]],
  ['a Date', { at: new Date(1_795_458_414_537) }],
  ['an object with toJSON', { custom: { toJSON: () => ({ replaced: true }) } }],
  ['a Map and a Set', { map: new Map([['k', 1]]), set: new Set([1]) }],
  ['an object without prototype', Object.assign(Object.create(null) as object, { a: 1 })],
  ['a __proto__ key', JSON.parse('{"__proto__":{"polluted":true},"a":1}') as unknown],
  ['key order', { z: 1, a: 2, 10: 3, 2: 4 }],
];

describe('copyJson', () => {
  it.each(samples)('gives what a JSON round trip gives: %s', (_name, value) => {
    const copy = copyJson(value);
    expect(copy).toStrictEqual(roundTrip(value));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it('makes -0 a plain 0, as JSON does', () => {
    expect(Object.is(copyJson({ n: -0 }).n, 0)).toBe(true);
  });

  it('keeps __proto__ an own property and never sets the prototype', () => {
    const copy = copyJson(JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('shares nothing with the original', () => {
    const original = { list: [{ n: 1 }], inner: { n: 2 } };
    const copy = copyJson(original);
    copy.list[0]!.n = 9;
    copy.inner.n = 9;
    expect(original).toEqual({ list: [{ n: 1 }], inner: { n: 2 } });
  });

  it('throws where the round trip throws', () => {
    expect(() => copyJson({ big: 1n })).toThrow(TypeError);
    expect(() => copyJson(undefined)).toThrow(SyntaxError);
  });
});
