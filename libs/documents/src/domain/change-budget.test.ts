import { describe, expect, it } from 'vitest';
import { itemsWithinChangeBudget } from './change-budget';

const entity = (updatedAt: number, revision: number, deletedAt?: number) => ({ updatedAt, revision, ...(deletedAt === undefined ? {} : { deletedAt }) });

describe('itemsWithinChangeBudget', () => {
  it('keeps every item when their changes fit', () => {
    expect(itemsWithinChangeBudget([entity(1, 4), entity(2, 4)], 10)).toBe(2);
  });

  it('cuts before the millisecond whose changes pass the budget', () => {
    expect(itemsWithinChangeBudget([entity(1, 4), entity(2, 4), entity(3, 0)], 9)).toBe(1);
  });

  it('never cuts inside a millisecond: the whole millisecond goes or stays', () => {
    const items = [entity(1, 2), entity(2, 2), entity(2, 2), entity(3, 0)];
    expect(itemsWithinChangeBudget(items, 8)).toBe(1);
    expect(itemsWithinChangeBudget(items, 9)).toBe(3);
    expect(itemsWithinChangeBudget(items, 10)).toBe(4);
  });

  it('keeps the first millisecond whole however many changes it holds', () => {
    expect(itemsWithinChangeBudget([entity(1, 50), entity(1, 50), entity(2, 0)], 10)).toBe(2);
  });

  it('counts no changes for tombstones', () => {
    expect(itemsWithinChangeBudget([entity(1, 4), entity(2, 900, 2), entity(3, 4)], 10)).toBe(3);
  });

  it('keeps an empty page empty', () => {
    expect(itemsWithinChangeBudget([], 10)).toBe(0);
  });
});
