import type { KeyValue, SetOptions } from './port';
import { FieldMaps } from './field-maps';
import { liveWithPrefix } from './live-with-prefix';

/**
 * The in-memory KeyValue for tests and one-off tools: one process, nothing shared, nothing kept.
 * `now` can be injected so tests control expiry.
 */
export function createMemoryKeyValue(options: { now?: () => number } = {}): KeyValue {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: string; expiresAt?: number }>();
  const maps = new FieldMaps(now);
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    kind: 'memory',
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key: string, value: string, setOptions: SetOptions = {}) {
      if (setOptions.onlyIfAbsent && live(key)) return false;
      if (setOptions.onlyIfPresent && !live(key)) return false;
      if (setOptions.onlyIfValue !== undefined && live(key)?.value !== setOptions.onlyIfValue) return false;
      entries.set(key, { value, ...(setOptions.ttlMs !== undefined ? { expiresAt: now() + setOptions.ttlMs } : {}) });
      return true;
    },
    async increment(key, incrementOptions) {
      const entry = live(key);
      if (!entry && incrementOptions.onlyIfPresent) return 0;
      const value = (entry ? Number(entry.value) || 0 : 0) + (incrementOptions.by ?? 1);
      entries.set(key, { value: String(value), expiresAt: entry?.expiresAt ?? now() + incrementOptions.ttlMs });
      return value;
    },
    async delete(key) {
      const existed = live(key) !== undefined;
      entries.delete(key);
      return existed;
    },
    async scan(prefix) {
      return liveWithPrefix(entries.keys(), prefix, live);
    },
    async setField(key, field, value, fieldOptions) {
      return maps.set(key, field, value, fieldOptions) !== undefined;
    },
    async fields(key) {
      return maps.fields(key);
    },
    async deleteField(key, field) {
      return maps.delete(key, field);
    },
    async ping() {
      return true;
    },
    async close() {
      entries.clear();
      maps.clear();
    },
  };
}
