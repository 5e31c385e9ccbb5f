/**
 * How many changes a page of entities with their histories (`includeChanges`) may carry: about
 * 2.6 MB of changes. Without a bound, one pull of 5,000 entities with long histories made the
 * process hold all of them at once.
 */
export const CHANGES_PER_PAGE = 20_000;

/**
 * Characters of a page's entities (without changes). A page of 1,000 documents near the 1 MiB
 * document limit was more text than one JavaScript string holds (about 512 MiB): it could not be
 * answered at all, and a client of such a type could never pull it.
 */
export const PAGE_CHARACTERS = 16 * 1024 * 1024;

/**
 * Bytes of stored documents one page's read holds before it stops: twice the answer's budget, so
 * the answer's cut decides wherever documents measure about as they are stored. Without it, a
 * page of 5,000 documents near the 1 MiB limit was read whole (5 GB) before being cut to 16 MiB.
 */
export const PAGE_READ_BYTES = 2 * PAGE_CHARACTERS;

export interface PagedEntity {
  updatedAt: number;
  revision: number;
  deletedAt?: number;
}

/** What a page may spend, and what each entity costs of it. */
export interface PageBudget<T extends PagedEntity = PagedEntity> {
  limit: number;
  /**
   * Reads what `cost` needs, for the page's items in order, before any cost is asked: only the
   * items the budgets without `prepare` keep, and it may stop once the items read pass the limit
   * beyond the first millisecond (see readUntilSpent), since the page is cut before the rest.
   */
  prepare?(items: readonly T[]): Promise<void>;
  /** What `entity` spends; for an item `prepare` did not read (one the page cuts anyway), anything. */
  cost(entity: T): number;
}

/**
 * Calls `read` on `items` in page order until their costs pass `limit` at an item of a later
 * millisecond than the first: itemsWithinBudgets asks no cost past that item. Answers how many
 * were read.
 */
export async function readUntilSpent<T extends PagedEntity>(items: readonly T[], limit: number, read: (item: T) => Promise<number>): Promise<number> {
  let spent = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as T;
    spent += await read(item);
    if (spent > limit && item.updatedAt !== (items[0] as T).updatedAt) return index + 1;
  }
  return items.length;
}

/** A page's changes: an entity's revisions 0 to `revision`; a tombstone carries none. */
export const changeBudget: PageBudget = {
  limit: CHANGES_PER_PAGE,
  cost: (entity) => (entity.deletedAt === undefined ? entity.revision + 1 : 0),
};

/**
 * How many of `items` (in page order) a page keeps: as many as every budget allows, cut only
 * between two milliseconds, so a client that pulls again from the largest `updatedAt` it saw
 * still misses nothing. The first millisecond is always kept whole, whatever it costs: a page
 * never comes back empty.
 */
export function itemsWithinBudgets<T extends PagedEntity>(items: readonly T[], budgets: ReadonlyArray<PageBudget<T>>): number {
  const spent = budgets.map(() => 0);
  let kept = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as T;
    if (index > 0 && item.updatedAt !== (items[index - 1] as T).updatedAt) kept = index;
    for (let which = 0; which < budgets.length; which += 1) {
      const budget = budgets[which] as PageBudget<T>;
      spent[which] = (spent[which] as number) + budget.cost(item);
      if ((spent[which] as number) > budget.limit && kept > 0) return kept;
    }
  }
  return items.length;
}
