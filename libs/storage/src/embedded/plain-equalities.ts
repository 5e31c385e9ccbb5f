import type { Filter } from '../port';

export type Plain = string | number | boolean;

/** A scalar a filter can compare by equality and order: a string, a boolean or a number (not NaN). */
export function isPlain(value: unknown): value is Plain {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && !Number.isNaN(value));
}

/**
 * A filter made only of top-level `field: string | number | boolean` equalities (a lookup by id,
 * a guarded update's id and revision) tested without compiling a query: the query engine builds
 * its operator tables anew for every query, which cost a write more than the rest of its match.
 * MongoDB's meaning is kept: the field equals the value, or is an array holding it. Any other
 * filter answers undefined and goes to the query engine.
 */
export function plainEqualities(filter: Filter): { test(document: Record<string, unknown>): boolean } | undefined {
  const entries = Object.entries(filter);
  if (entries.length === 0) return undefined;
  for (const [field, value] of entries) {
    if (field.startsWith('$') || field.includes('.') || !isPlain(value)) return undefined;
  }
  return {
    test: (document) =>
      entries.every(([field, value]) => {
        const held = document[field];
        return held === value || (Array.isArray(held) && held.includes(value));
      }),
  };
}
