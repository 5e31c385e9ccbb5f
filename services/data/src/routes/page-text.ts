import { PAGE_CHARACTERS, publicView, readUntilSpent, tombstoneView, type EntityReader, type EntityScope, type PageBudget, type StoredEntity } from '@platform/documents';

/** An entity as a page answers it: a tombstone carries what a client needs to drop its copy, not the deleted content again. */
export function pageView(entity: StoredEntity): object {
  return entity.deletedAt !== undefined ? tombstoneView(entity) : publicView(entity);
}

/** A page's budget of characters (PAGE_CHARACTERS), measured on each entity's answer text. */
export const characterBudget: PageBudget<StoredEntity> = { limit: PAGE_CHARACTERS, cost: (entity) => JSON.stringify(pageView(entity)).length };

/** A page's items as their answer texts: what a page with `includeChanges` is built from. */
export interface PageItemTexts {
  /** The character budget (PAGE_CHARACTERS), measured on the texts it reads. */
  budget: PageBudget<StoredEntity>;
  /** The text of an item the page kept. */
  of(entity: StoredEntity): string;
}

/**
 * Each live entity's text with its changes (EntityReader.withChangesJson, from the history's
 * cached text where it has it), each tombstone's text, read once, in page order, only up to the
 * cut: the page is measured by its changes too and answered from the same texts.
 */
export function itemTextsWithChanges(reader: EntityReader, scope: EntityScope): PageItemTexts {
  const texts = new Map<StoredEntity, string>();
  const read = async (entity: StoredEntity) => {
    const text = entity.deletedAt !== undefined ? JSON.stringify(pageView(entity)) : await reader.withChangesJson(scope, entity);
    texts.set(entity, text);
    return text.length;
  };
  return {
    budget: {
      limit: PAGE_CHARACTERS,
      prepare: async (items) => void (await readUntilSpent(items, PAGE_CHARACTERS, read)),
      cost: (entity) => texts.get(entity)?.length ?? 0,
    },
    of(entity) {
      const text = texts.get(entity);
      if (text === undefined) throw new Error(`the page kept ${entity.id}, whose text its budget did not read`);
      return text;
    },
  };
}

/** A page's answer as text from its items' texts and its other fields (cursor, retryAfterMs, standing). */
export function pageAnswerText(itemTexts: readonly string[], fields: Record<string, unknown>): string {
  const rest = JSON.stringify(fields);
  return `{"items":[${itemTexts.join(',')}]${rest === '{}' ? '}' : `,${rest.slice(1)}`}`;
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
