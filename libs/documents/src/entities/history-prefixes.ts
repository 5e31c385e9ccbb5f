import type { EventSource } from '@platform/contracts';
import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../domain/deep-freeze';

/**
 * One entity's cached changes (index = revision) and the JSON texts of its first changes, as a
 * write's answer sends them: made when an answer first needs them, so changes a read brought in
 * (a history page, a conflict) are not encoded unless a write's answer sends them.
 */
interface CachedPrefix {
  changes: readonly EventSource[];
  texts: string[];
  /** What the changes count against the bound (see countOf). */
  counted: number;
}

/**
 * A change counts once against the bound for every this many characters of its modifier's JSON
 * (at least once). Counting each change once, whatever its size, let the bound hold far more than
 * it says: a creation's change is the whole document, so a process that creates documents of a
 * few kilobytes kept 200,000 of them, gigabytes, where 200,000 small changes are 50 to 100 MB.
 */
export const CHANGE_CHARACTERS_COUNTED_ONCE = 256;

/** What a change counts against the bound: `characters` is its modifier's JSON length when the caller has it at hand. */
function countOf(change: EventSource, characters?: number): number {
  return 1 + Math.floor((characters ?? JSON.stringify(change.modifier).length) / CHANGE_CHARACTERS_COUNTED_ONCE);
}

const NO_CHANGES: readonly EventSource[] = Object.freeze([]);

/**
 * The changes of recently written or read entities, revision 0 onwards without a gap, so reading
 * an entity's changes asks the store only for the newer ones. History records are written once and
 * never changed or removed (save erasure of a soft-deleted entity, whose changes History never
 * answers from here), so a prefix stays true on every replica. Least recently used entities
 * are dropped past `maxChanges` in all, a large change counting as several (countOf; an entity
 * with more is not kept); the cached changes are
 * frozen, as they are shared. A change's JSON text is kept too once a write's answer has needed
 * it: every write answers the entity's whole history, and encoding it again on every write made a
 * write's cost grow with the entity's age (about 1 ms more CPU per write at 3,000 changes).
 */
export class HistoryPrefixes {
  private readonly prefixes: LRUCache<string, CachedPrefix>;

  constructor(maxChanges: number) {
    this.prefixes = new LRUCache({ maxSize: maxChanges, sizeCalculation: (prefix) => prefix.counted });
  }

  /** The entity's cached changes (index = revision); empty when none are cached. */
  get(key: string): readonly EventSource[] {
    return this.prefixes.get(key)?.changes ?? NO_CHANGES;
  }

  /**
   * The JSON array of the entity's changes 0 to `revision` (the text `JSON.stringify` gives for
   * them), or undefined when the prefix does not reach `revision`.
   */
  jsonThrough(key: string, revision: number): string | undefined {
    const cached = this.prefixes.get(key);
    if (!cached || cached.changes.length <= revision) return undefined;
    const { changes, texts } = cached;
    // Texts only grow, each the encoding of its frozen change: filling them in place is safe for every holder.
    while (texts.length <= revision) texts.push(JSON.stringify(changes[texts.length]));
    return `[${(texts.length === revision + 1 ? texts : texts.slice(0, revision + 1)).join(',')}]`;
  }

  forget(key: string): void {
    this.prefixes.delete(key);
  }

  /**
   * Extends the entity's prefix with `records` (sorted by revision) as far as they continue it;
   * the values kept are frozen in place. `modifierCharacters`, when given, is the length of the
   * change's modifier as JSON (the stored `modifierJson`), which spares encoding it again.
   */
  extend(key: string, records: ReadonlyArray<EventSource & { revision: number; modifierCharacters?: number }>): void {
    if (records.length === 0) return;
    const cached = this.prefixes.get(key);
    const changes = cached ? [...cached.changes] : [];
    let counted = cached?.counted ?? 0;
    for (const { revision, userId, timestamp, baseRevision, modifier, modifierCharacters } of records) {
      if (revision < changes.length) continue;
      if (revision > changes.length) break;
      const change = deepFreeze({ userId, timestamp, baseRevision, modifier });
      changes.push(change);
      counted += countOf(change, modifierCharacters);
    }
    // The texts stay shared: each is its change's encoding, and the new changes extend the old ones.
    if (changes.length > (cached?.changes.length ?? 0)) this.prefixes.set(key, { changes, texts: cached?.texts ?? [], counted });
  }
}
