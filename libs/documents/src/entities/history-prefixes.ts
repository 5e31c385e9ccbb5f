import type { EventSource } from '@platform/contracts';
import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../domain/deep-freeze';

/**
 * The changes of recently written or read entities, revision 0 onwards without a gap, so reading
 * an entity's changes asks the store only for the newer ones. History records are written once and
 * never changed or removed (save erasure of a soft-deleted entity, whose changes History never
 * answers from here), so a prefix stays true on every replica. Least recently used entities
 * are dropped past `maxChanges` in all (an entity with more is not kept); the cached changes are
 * frozen, as they are shared.
 */
export class HistoryPrefixes {
  private readonly prefixes: LRUCache<string, readonly EventSource[]>;

  constructor(maxChanges: number) {
    this.prefixes = new LRUCache({ maxSize: maxChanges, sizeCalculation: (prefix) => prefix.length });
  }

  /** The entity's cached changes (index = revision); empty when none are cached. */
  get(key: string): readonly EventSource[] {
    return this.prefixes.get(key) ?? [];
  }

  forget(key: string): void {
    this.prefixes.delete(key);
  }

  /**
   * Extends the entity's prefix with `records` (sorted by revision) as far as they continue it;
   * the values kept are frozen in place.
   */
  extend(key: string, records: ReadonlyArray<EventSource & { revision: number }>): void {
    if (records.length === 0) return;
    const cached = this.get(key);
    const prefix = [...cached];
    for (const { revision, userId, timestamp, baseRevision, modifier } of records) {
      if (revision < prefix.length) continue;
      if (revision > prefix.length) break;
      prefix.push(deepFreeze({ userId, timestamp, baseRevision, modifier }));
    }
    if (prefix.length > cached.length) this.prefixes.set(key, prefix);
  }
}
