import { describe, expect, it } from 'vitest';
import { changeBudget, itemsWithinBudgets, readUntilSpent, type PageBudget, type PagedEntity } from './page-budget';

const entity = (updatedAt: number, revision: number, deletedAt?: number) => ({ updatedAt, revision, ...(deletedAt === undefined ? {} : { deletedAt }) });
const changes = (limit: number): PageBudget => ({ ...changeBudget, limit });
const cut = (items: PagedEntity[], limit: number) => itemsWithinBudgets(items, [changes(limit)]);

describe('itemsWithinBudgets', () => {
  it('keeps every item when their changes fit', () => {
    expect(cut([entity(1, 4), entity(2, 4)], 10)).toBe(2);
  });

  it('cuts before the millisecond whose changes pass the budget', () => {
    expect(cut([entity(1, 4), entity(2, 4), entity(3, 0)], 9)).toBe(1);
  });

  it('never cuts inside a millisecond: the whole millisecond goes or stays', () => {
    const items = [entity(1, 2), entity(2, 2), entity(2, 2), entity(3, 0)];
    expect(cut(items, 8)).toBe(1);
    expect(cut(items, 9)).toBe(3);
    expect(cut(items, 10)).toBe(4);
  });

  it('keeps the first millisecond whole however much it costs', () => {
    expect(cut([entity(1, 50), entity(1, 50), entity(2, 0)], 10)).toBe(2);
  });

  it('counts no changes for tombstones', () => {
    expect(cut([entity(1, 4), entity(2, 900, 2), entity(3, 4)], 10)).toBe(3);
  });

  it('keeps an empty page empty', () => {
    expect(cut([], 10)).toBe(0);
  });

  it('cuts where the first of several budgets runs out', () => {
    // Characters 10, 30, 60, 100 in all; changes 1, 2, 3, 4.
    const characters: PageBudget = { limit: 35, cost: (item) => item.updatedAt * 10 };
    const items = [entity(1, 0), entity(2, 0), entity(3, 0), entity(4, 0)];
    expect(itemsWithinBudgets(items, [changes(100), characters])).toBe(2);
    expect(itemsWithinBudgets(items, [characters, changes(1)])).toBe(1);
    expect(itemsWithinBudgets(items, [changes(100), { ...characters, limit: 1_000 }])).toBe(4);
  });
});

describe('readUntilSpent', () => {
  /** Reads each item's revision as its cost; answers how many were read and which. */
  const readCosts = async (items: PagedEntity[], limit: number) => {
    const read: PagedEntity[] = [];
    const count = await readUntilSpent(items, limit, async (item) => {
      read.push(item);
      return item.revision;
    });
    return { count, read };
  };

  it('stops at the item of a later millisecond that passes the limit, and the cut asks no cost past it', async () => {
    const items = [entity(1, 4), entity(2, 4), entity(3, 4), entity(4, 4)];
    const { count, read } = await readCosts(items, 7);
    expect(count).toBe(2);
    expect(read).toEqual(items.slice(0, 2));
    const asked: PagedEntity[] = [];
    const costs = new Map(read.map((item) => [item, item.revision]));
    expect(itemsWithinBudgets(items, [{ limit: 7, cost: (item) => (asked.push(item), costs.get(item) as number) }])).toBe(1);
    expect(asked.every((item) => costs.has(item))).toBe(true);
  });

  it('reads the whole first millisecond however much it costs, and everything when the limit is never passed', async () => {
    expect((await readCosts([entity(1, 9), entity(1, 9), entity(2, 1), entity(3, 1)], 5)).count).toBe(3);
    expect((await readCosts([entity(1, 1), entity(2, 1)], 5)).count).toBe(2);
  });
});
