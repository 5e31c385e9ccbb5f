/**
 * How many changes a page of entities with their histories (`includeChanges`) may carry: about
 * 2.6 MB of changes. Without a bound, one pull of 5,000 entities with long histories made the
 * process hold all of them at once.
 */
export const CHANGES_PER_PAGE = 20_000;

interface PagedEntity {
  updatedAt: number;
  revision: number;
  deletedAt?: number;
}

/** An entity's changes in a page: revisions 0 to `revision`; a tombstone carries none. */
function changeCount(entity: PagedEntity): number {
  return entity.deletedAt === undefined ? entity.revision + 1 : 0;
}

/**
 * How many of `items` (in page order) a page with their changes keeps: as many as fit in
 * `budget`, cut only between two milliseconds, so a client that pulls again from the largest
 * `updatedAt` it saw still misses nothing. The first millisecond is always kept whole, whatever
 * its changes: a page never comes back empty.
 */
export function itemsWithinChangeBudget(items: readonly PagedEntity[], budget: number): number {
  let spent = 0;
  let kept = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as PagedEntity;
    if (index > 0 && item.updatedAt !== (items[index - 1] as PagedEntity).updatedAt) kept = index;
    spent += changeCount(item);
    if (spent > budget && kept > 0) return kept;
  }
  return items.length;
}
