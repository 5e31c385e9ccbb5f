import { PAGE_CHARACTERS, publicView, tombstoneView, type PageBudget, type StoredEntity } from '@platform/documents';

/**
 * Each entity's answer text in one page, made once: the page's character budget measures it, and
 * the answer joins it. Re-encoding the page through zod cost more than reading it from the
 * store, and measuring apart from answering would encode every entity twice.
 */
export class PageTexts {
  private readonly texts = new Map<StoredEntity, string>();

  /** The page's budget of characters (PAGE_CHARACTERS), measured on the entities' texts. */
  readonly budget: PageBudget<StoredEntity> = { limit: PAGE_CHARACTERS, cost: (entity) => this.of(entity).length };

  /** The entity as the page answers it: a tombstone carries what a client needs to drop its copy, not the deleted content again. */
  of(entity: StoredEntity): string {
    let text = this.texts.get(entity);
    if (text === undefined) {
      text = JSON.stringify(entity.deletedAt !== undefined ? tombstoneView(entity) : publicView(entity));
      this.texts.set(entity, text);
    }
    return text;
  }
}

/** `{ items: [...], ...rest }` as JSON text, from the items' texts. */
export function pageJson(itemTexts: readonly string[], rest: Record<string, unknown>): string {
  const fields = JSON.stringify(rest);
  return `{"items":[${itemTexts.join(',')}]${fields === '{}' ? '}' : `,${fields.slice(1)}`}`;
}
