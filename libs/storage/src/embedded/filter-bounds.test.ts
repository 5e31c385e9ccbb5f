import { describe, expect, it } from 'vitest';
import { fieldBounds, isEquality } from './filter-bounds';

describe('fieldBounds', () => {
  it('reads equalities and range operators on the field', () => {
    expect(fieldBounds({ at: 5 }, 'at')).toEqual({ low: { value: 5, inclusive: true }, high: { value: 5, inclusive: true } });
    expect(fieldBounds({ at: { $gt: 1, $lte: 9 } }, 'at')).toEqual({ low: { value: 1, inclusive: false }, high: { value: 9, inclusive: true } });
    expect(isEquality(fieldBounds({ at: { $eq: 'x' } }, 'at'))).toBe(true);
    expect(isEquality(fieldBounds({ at: { $gte: 3, $lte: 3 } }, 'at'))).toBe(true);
    expect(isEquality(fieldBounds({ at: { $gt: 3, $lte: 3 } }, 'at'))).toBe(false);
  });

  it('takes the tighter end across $and and the looser across $or', () => {
    expect(fieldBounds({ at: { $gt: 1 }, $and: [{ at: { $gte: 4 } }, { at: { $lt: 8 } }] }, 'at')).toEqual({ low: { value: 4, inclusive: true }, high: { value: 8, inclusive: false } });
    expect(fieldBounds({ $or: [{ at: { $gt: 30 } }, { at: 4, id: 'x' }] }, 'at')).toEqual({ low: { value: 4, inclusive: true } });
  });

  it('does not narrow what it cannot read', () => {
    expect(fieldBounds({ $or: [{ at: { $gt: 30 } }, { other: 1 }] }, 'at')).toEqual({});
    expect(fieldBounds({ at: { $in: [1, 2] }, b: 1 }, 'at')).toEqual({});
    expect(fieldBounds({ at: { $not: { $gt: 3 } } }, 'at')).toEqual({});
    expect(fieldBounds({ at: null }, 'at')).toEqual({});
    expect(fieldBounds({ at: { nested: 1 } }, 'at')).toEqual({});
    expect(fieldBounds({ at: Number.NaN }, 'at')).toEqual({});
  });
});
