import { PAGE_CHARACTERS, publicView, tombstoneView, type PageBudget, type StoredEntity } from '@platform/documents';

/** An entity as a page answers it: a tombstone carries what a client needs to drop its copy, not the deleted content again. */
export function pageView(entity: StoredEntity): object {
  return entity.deletedAt !== undefined ? tombstoneView(entity) : publicView(entity);
}

/** A page's budget of characters (PAGE_CHARACTERS), measured on each entity's answer text. */
export const characterBudget: PageBudget<StoredEntity> = { limit: PAGE_CHARACTERS, cost: (entity) => JSON.stringify(pageView(entity)).length };

/**
 * `answer` as JSON text if it is at most `limit` characters; undefined when it is longer, or
 * longer than one string can hold (about 512 MiB: JSON.stringify throws a RangeError).
 */
export function jsonWithin(answer: unknown, limit: number): string | undefined {
  try {
    const text = JSON.stringify(answer);
    return text.length <= limit ? text : undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
