import { PAGE_CHARACTERS, publicView, readUntilSpent, tombstoneView, type EntityReader, type EntityScope, type PageBudget, type StoredEntity } from '@platform/documents';

/** An entity as a page answers it: a tombstone carries what a client needs to drop its copy, not the deleted content again. */
export function pageView(entity: StoredEntity): object {
  return entity.deletedAt !== undefined ? tombstoneView(entity) : publicView(entity);
}

/** A page's budget of characters (PAGE_CHARACTERS), measured on each entity's answer text. */
export const characterBudget: PageBudget<StoredEntity> = { limit: PAGE_CHARACTERS, cost: (entity) => JSON.stringify(pageView(entity)).length };

/**
 * The same budget for a page with `includeChanges`, measured on each live entity's text with its
 * changes (from the history, as the answer reads them), so a page passes it by its changes too.
 * Only the entities up to the cut are read.
 */
export function characterBudgetWithChanges(reader: EntityReader, scope: EntityScope): PageBudget<StoredEntity> {
  const lengths = new Map<StoredEntity, number>();
  const answerLength = async (entity: StoredEntity) => (entity.deletedAt !== undefined ? JSON.stringify(pageView(entity)) : await reader.withChangesJson(scope, entity)).length;
  return {
    limit: PAGE_CHARACTERS,
    async prepare(items) {
      await readUntilSpent(items, PAGE_CHARACTERS, async (entity) => {
        const length = await answerLength(entity);
        lengths.set(entity, length);
        return length;
      });
    },
    cost: (entity) => lengths.get(entity) ?? 0,
  };
}

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
