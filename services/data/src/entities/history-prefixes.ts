import type { EventSource } from '@platform/contracts';

/**
 * The changes of recently written or read entities, revision 0 onwards without a gap, so reading
 * an entity's changes asks the store only for the newer ones. History records are written once and
 * never changed or removed, so a prefix stays true on every replica. Least recently used entities
 * are dropped past `maxChanges` in all; the cached changes are frozen, as they are shared.
 */
export class HistoryPrefixes {
  private readonly prefixes = new Map<string, readonly EventSource[]>();
  private held = 0;

  constructor(private readonly maxChanges: number) {}

  /** The entity's cached changes (index = revision); empty when none are cached. */
  get(key: string): readonly EventSource[] {
    const prefix = this.prefixes.get(key);
    if (!prefix) return [];
    // Re-inserting moves the entry to the end of the map's order: the most recently used.
    this.prefixes.delete(key);
    this.prefixes.set(key, prefix);
    return prefix;
  }

  /** Extends the entity's prefix with `records` (sorted by revision) as far as they continue it. */
  extend(key: string, records: ReadonlyArray<EventSource & { revision: number }>): void {
    const prefix = [...this.get(key)];
    for (const { revision, userId, timestamp, baseRevision, modifier } of records) {
      if (revision < prefix.length) continue;
      if (revision > prefix.length) break;
      prefix.push(deepFreeze({ userId, timestamp, baseRevision, modifier }));
    }
    const before = this.prefixes.get(key)?.length ?? 0;
    if (prefix.length === before || prefix.length > this.maxChanges) return;
    this.prefixes.set(key, prefix);
    this.held += prefix.length - before;
    for (const [oldest, dropped] of this.prefixes) {
      if (this.held <= this.maxChanges) break;
      this.prefixes.delete(oldest);
      this.held -= dropped.length;
    }
  }
}

function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}
