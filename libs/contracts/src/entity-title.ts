/** Fields that name a document, in the order they are tried. */
export const TITLE_FIELDS = ['title', 'name', 'label', 'displayName', 'subject', 'email'] as const;

/** Longer titles are cut here (with an ellipsis) so one item stays small. */
export const MAX_TITLE_LENGTH = 200;

/** The preferred language of a localised title (`{ en: 'Orders', de: 'Bestellungen' }`). */
const PREFERRED_LANGUAGE = 'en';

/** A non-empty string, or a localised map's English (else first non-empty) text. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const map = value as Record<string, unknown>;
    const preferred = map[PREFERRED_LANGUAGE];
    if (typeof preferred === 'string' && preferred.trim()) return preferred.trim();
    for (const entry of Object.values(map)) if (typeof entry === 'string' && entry.trim()) return entry.trim();
  }
  return undefined;
}

function clip(title: string): string {
  return title.length > MAX_TITLE_LENGTH ? `${title.slice(0, MAX_TITLE_LENGTH - 1)}…` : title;
}

/**
 * The title an entity shows (an audit item's, as the entity was after the change; the console's
 * document choices): a type's `name` (then its localised `title`); otherwise the first of
 * TITLE_FIELDS holding a non-empty string, a number, or a localised map (English, else its first
 * text). Without any, the entity id.
 */
export function entityTitle(typeId: string, entity: Record<string, unknown>, entityId: string): string {
  const fields: readonly string[] = typeId === 'types' ? ['name', 'title'] : TITLE_FIELDS;
  for (const field of fields) {
    const text = textOf(entity[field]);
    if (text) return clip(text);
  }
  return entityId;
}
