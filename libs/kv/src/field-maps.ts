import { inTextOrder } from './live-with-prefix';
import type { FieldOptions } from './port';

/** A field's value with its absolute expiry (epoch ms). */
export interface FieldEntry {
  value: string;
  expiresAt: number;
}

/**
 * The maps of fields of a process-local KeyValue (memory, embedded): each map a Map of its fields,
 * an expired field dropped when read or swept, a map with it once empty.
 */
export class FieldMaps {
  private readonly maps = new Map<string, Map<string, FieldEntry>>();
  /** How many fields are kept, counted as they come and go: a log asks at every write. */
  private count = 0;

  constructor(private readonly now: () => number) {}

  /** The field's entry, or undefined when it is absent or expired (then dropped). */
  live(key: string, field: string): FieldEntry | undefined {
    const map = this.maps.get(key);
    const entry = map?.get(field);
    if (!map || !entry) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.drop(key, field);
    return undefined;
  }

  /** Sets the field unless `onlyIfPresent` finds it absent; answers the entry written, or undefined. */
  set(key: string, field: string, value: string, options: FieldOptions): FieldEntry | undefined {
    if (options.onlyIfPresent && !this.live(key, field)) return undefined;
    const entry = { value, expiresAt: this.now() + options.ttlMs };
    this.restore(key, field, entry);
    return entry;
  }

  /** Puts an entry back as it was (a log's replay). */
  restore(key: string, field: string, entry: FieldEntry): void {
    let map = this.maps.get(key);
    if (!map) this.maps.set(key, (map = new Map()));
    if (!map.has(field)) this.count += 1;
    map.set(field, entry);
  }

  /** Removes the field; answers whether it was live. */
  delete(key: string, field: string): boolean {
    const existed = this.live(key, field) !== undefined;
    this.drop(key, field);
    return existed;
  }

  /** The live fields of the map at `key`, in field order. */
  fields(key: string): Array<{ field: string; value: string }> {
    const map = this.maps.get(key);
    if (!map) return [];
    const found: Array<{ field: string; value: string }> = [];
    for (const field of [...map.keys()]) {
      const entry = this.live(key, field);
      if (entry) found.push({ field, value: entry.value });
    }
    return found.sort((a, b) => inTextOrder(a.field, b.field));
  }

  /** Drops every expired field. */
  sweep(): void {
    const now = this.now();
    for (const [key, map] of this.maps) for (const [field, entry] of map) if (entry.expiresAt <= now) this.drop(key, field);
  }

  /** Every field, for a snapshot. */
  *entries(): Generator<{ key: string; field: string; entry: FieldEntry }> {
    for (const [key, map] of this.maps) for (const [field, entry] of map) yield { key, field, entry };
  }

  /** How many fields are kept. */
  get size(): number {
    return this.count;
  }

  clear(): void {
    this.maps.clear();
    this.count = 0;
  }

  private drop(key: string, field: string): void {
    const map = this.maps.get(key);
    if (!map?.delete(field)) return;
    this.count -= 1;
    if (map.size === 0) this.maps.delete(key);
  }
}
