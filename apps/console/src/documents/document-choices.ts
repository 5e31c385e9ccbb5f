// The subpath: the package's index would bring its zod schemas into the console's first download.
import { entityTitle } from '@platform/contracts/entity-title';
import type { LocalDocument } from '@platform/sync-client';
import { SERVER_FIELDS } from '../components/document-editor';

/** A document list offered while typing an id stays short enough for the browser to filter as one types. */
export const DOCUMENT_CHOICES_LIMIT = 200;

/** A document's own first text, for a type whose documents have none of the title fields. */
function firstText(document: LocalDocument): string | undefined {
  for (const [field, value] of Object.entries(document)) if (!SERVER_FIELDS.has(field) && typeof value === 'string' && value.trim()) return value.trim();
  return undefined;
}

/**
 * The documents offered for an id field: the most recently changed first, each named as the audit
 * trail names it (its title, name, label, ...), else by its first text field; none: no name.
 */
export function documentChoices(typeId: string, documents: readonly LocalDocument[], limit = DOCUMENT_CHOICES_LIMIT): Array<{ id: string; label: string }> {
  return [...documents]
    .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((document) => {
      const title = entityTitle(typeId, document, document.id);
      return { id: document.id, label: title === document.id ? (firstText(document) ?? '') : title };
    });
}
