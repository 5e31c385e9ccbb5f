import { describe, expect, it } from 'vitest';
import { plainEqualities } from './plain-equalities';

describe('plainEqualities', () => {
  it('matches string, number and boolean equalities, and an array holding the value, as MongoDB does', () => {
    const matcher = plainEqualities({ id: 'a', revision: 2, done: false });
    expect(matcher?.test({ id: 'a', revision: 2, done: false, other: 1 })).toBe(true);
    expect(matcher?.test({ id: 'a', revision: '2', done: false })).toBe(false);
    expect(matcher?.test({ id: 'a', revision: 2 })).toBe(false);
    expect(plainEqualities({ tags: 'x' })?.test({ tags: ['y', 'x'] })).toBe(true);
    expect(plainEqualities({ tags: 'x' })?.test({ tags: [['x']] })).toBe(false);
  });

  it('leaves operators, dotted paths, null, objects and empty filters to the query engine', () => {
    for (const filter of [{}, { $or: [] }, { 'a.b': 1 }, { a: null }, { a: { $gt: 1 } }, { a: { b: 1 } }, { a: [1] }, { a: Number.NaN }]) {
      expect(plainEqualities(filter as never)).toBeUndefined();
    }
  });
});
