import { copyJson } from '../copy-json';
import type { Projection } from '../port';

/**
 * A copy of `document` under a projection of top-level fields only (how services read: leave out
 * internal fields, or pick a few), without the query engine, which builds its operator tables
 * anew on each call. Keeps MongoDB's meaning with `id` as the key: an inclusion keeps `id` unless
 * it says `id: 0`. Undefined for any other projection (dotted paths, mixed modes). Only the kept
 * fields are copied: an excluded outbox costs nothing.
 */
export function projectTopLevel(document: Record<string, unknown>, projection: Projection): Record<string, unknown> | undefined {
  const entries = Object.entries(projection);
  if (entries.some(([field]) => field.includes('.') || field.startsWith('$'))) return undefined;
  if (entries.every(([, keep]) => keep === 0)) {
    const kept: Record<string, unknown> = {};
    for (const field of Object.keys(document)) if (!Object.hasOwn(projection, field)) kept[field] = document[field];
    return copyJson(kept);
  }
  const included = entries.filter(([field]) => field !== 'id');
  const idRule = projection.id;
  if (!included.every(([, keep]) => keep === 1) || (idRule !== undefined && idRule !== 0 && idRule !== 1)) return undefined;
  const picked: Record<string, unknown> = {};
  if (idRule !== 0 && Object.hasOwn(document, 'id')) picked.id = document.id;
  for (const [field] of included) if (Object.hasOwn(document, field)) picked[field] = document[field];
  return copyJson(picked);
}
