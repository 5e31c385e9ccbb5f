import type { Filter, StoredDocument } from '../port';

/** The keys a scalar can be looked up under; objects, arrays of objects and null are not indexed. */
function scalarKey(value: unknown): string | undefined {
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value}${String(value)}`;
  return undefined;
}

/**
 * The embedded store's secondary index on one top-level field: scalar value to the ids holding
 * it (each element of an array value too, as MongoDB's multikey indexes do). It only narrows the
 * candidates of a filter with a plain equality on the field; the full filter still runs on each
 * candidate, so a document the index cannot place (say, an object value) is never wrongly
 * returned, only a filter it cannot serve falls back to the scan.
 */
export class LookupIndex {
  private readonly ids = new Map<string, Set<string>>();

  constructor(readonly field: string) {}

  add(document: StoredDocument): void {
    for (const key of this.keysOf(document)) {
      let holders = this.ids.get(key);
      if (!holders) this.ids.set(key, (holders = new Set()));
      holders.add(document.id);
    }
  }

  remove(document: StoredDocument): void {
    for (const key of this.keysOf(document)) {
      const holders = this.ids.get(key);
      holders?.delete(document.id);
      if (holders?.size === 0) this.ids.delete(key);
    }
  }

  /** Moves `previous`'s entries to `next` (same id), unless the field's keys did not change. */
  replace(previous: StoredDocument, next: StoredDocument): void {
    const before = this.keysOf(previous);
    const after = this.keysOf(next);
    if (before.length === after.length && before.every((key, position) => key === after[position])) return;
    this.remove(previous);
    this.add(next);
  }

  /** The ids that can match `filter`, or undefined when the filter has no usable equality on the field. */
  candidates(filter: Filter): ReadonlySet<string> | undefined {
    const wanted = filter[this.field];
    const plain = wanted !== null && typeof wanted === 'object' && !Array.isArray(wanted) && Object.keys(wanted).length === 1 && '$eq' in wanted ? (wanted as { $eq: unknown }).$eq : wanted;
    const key = scalarKey(plain);
    if (key === undefined) return undefined;
    return this.ids.get(key) ?? new Set();
  }

  private keysOf(document: StoredDocument): string[] {
    const value = (document as Record<string, unknown>)[this.field];
    const values = Array.isArray(value) ? value : [value];
    return values.map(scalarKey).filter((key): key is string => key !== undefined);
  }
}
