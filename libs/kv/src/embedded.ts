import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppendLog, lockDirectory, readLog, type LogReporter } from '@platform/storage/log-files';
import type { KeyValue, SetOptions } from './port';
import { FieldMaps } from './field-maps';
import { liveWithPrefix } from './live-with-prefix';

/** One line of the log: a value with its absolute expiry (epoch ms), or a deletion; of a key, or of a field of the map at a key. */
type KeyValueLine =
  | { set: string; value: string; expiresAt?: number }
  | { del: string }
  | { setField: string; field: string; value: string; expiresAt: number }
  | { delField: string; field: string };

interface Entry {
  value: string;
  expiresAt?: number;
}

export interface EmbeddedKeyValueOptions {
  /** Directory of the log (`kv.jsonl`) and its `LOCK`; the platform uses `DATA_DIR/kv`. */
  directory: string;
  /** Acknowledge a write only once it is on disk (O_DSYNC, group commit); true unless turned off. */
  fsync?: boolean;
  /** How often expired keys are dropped from memory, so the next compaction leaves them out. */
  sweepIntervalMs?: number;
  now?: () => number;
  /** Where the log reports a failed compaction and a failure that stops its writes (stderr when not given). */
  logger?: LogReporter;
}

const LOG_FILE = 'kv.jsonl';

/**
 * The embedded KeyValue for the all-in-one shape: every key lives in memory and in an append-only
 * JSON-lines log (the document store's log: group commit, torn tail cut off, compaction), so
 * sessions and counters outlive a restart. Each operation changes memory synchronously before
 * it writes, which keeps `increment` and only-if-absent atomic within the one process the
 * directory lock admits; a write resolves once its line is on disk. Expiry times are absolute, so
 * a key's time to live keeps running while the process is down.
 */
export async function createEmbeddedKeyValue(options: EmbeddedKeyValueOptions): Promise<KeyValue> {
  const now = options.now ?? Date.now;
  await mkdir(options.directory, { recursive: true });
  const unlock = await lockDirectory(options.directory);
  const entries = new Map<string, Entry>();
  const maps = new FieldMaps(now);
  const isExpired = (entry: Entry) => entry.expiresAt !== undefined && entry.expiresAt <= now();
  const sweep = () => {
    for (const [key, entry] of entries) if (isExpired(entry)) entries.delete(key);
    maps.sweep();
  };
  const snapshot = (): KeyValueLine[] => {
    sweep();
    const keys: KeyValueLine[] = [...entries].map(([key, entry]) => ({ set: key, value: entry.value, ...(entry.expiresAt !== undefined ? { expiresAt: entry.expiresAt } : {}) }));
    const fields: KeyValueLine[] = [...maps.entries()].map(({ key, field, entry }) => ({ setField: key, field, value: entry.value, expiresAt: entry.expiresAt }));
    return [...keys, ...fields];
  };
  const liveCount = () => entries.size + maps.size;

  let log: AppendLog;
  try {
    const file = join(options.directory, LOG_FILE);
    const { records, validBytes } = await readLog<KeyValueLine>(file);
    for (const record of records) {
      if ('del' in record) entries.delete(record.del);
      else if ('setField' in record) maps.restore(record.setField, record.field, { value: record.value, expiresAt: record.expiresAt });
      else if ('delField' in record) maps.delete(record.delField, record.field);
      else entries.set(record.set, { value: record.value, ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}) });
    }
    sweep();
    log = new AppendLog(file, { fsync: options.fsync ?? true, validBytes, lineCount: records.length, snapshot: () => snapshot().map((line) => JSON.stringify(line)), liveCount, reporter: options.logger });
    // Overwritten, deleted and expired keys leave the file at every start; a failed rewrite is tried again later, writes go on.
    if (records.length > liveCount()) await log.compact();
  } catch (error) {
    await unlock();
    throw error;
  }
  const sweeper = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();

  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && isExpired(entry)) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const write = (key: string, entry: Entry) => {
    entries.set(key, entry);
    return log.append({ set: key, value: entry.value, ...(entry.expiresAt !== undefined ? { expiresAt: entry.expiresAt } : {}) });
  };

  return {
    kind: 'embedded',
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key: string, value: string, setOptions: SetOptions = {}) {
      if (setOptions.onlyIfAbsent && live(key)) return false;
      if (setOptions.onlyIfPresent && !live(key)) return false;
      if (setOptions.onlyIfValue !== undefined && live(key)?.value !== setOptions.onlyIfValue) return false;
      await write(key, { value, ...(setOptions.ttlMs !== undefined ? { expiresAt: now() + setOptions.ttlMs } : {}) });
      return true;
    },
    async increment(key, incrementOptions) {
      const entry = live(key);
      if (!entry && incrementOptions.onlyIfPresent) return 0;
      const value = (entry ? Number(entry.value) || 0 : 0) + (incrementOptions.by ?? 1);
      await write(key, { value: String(value), expiresAt: entry?.expiresAt ?? now() + incrementOptions.ttlMs });
      return value;
    },
    async delete(key) {
      if (live(key) === undefined) return false;
      entries.delete(key);
      await log.append({ del: key });
      return true;
    },
    async scan(prefix) {
      return liveWithPrefix(entries.keys(), prefix, live);
    },
    async setField(key, field, value, fieldOptions) {
      const entry = maps.set(key, field, value, fieldOptions);
      if (!entry) return false;
      await log.append({ setField: key, field, value, expiresAt: entry.expiresAt });
      return true;
    },
    async fields(key) {
      return maps.fields(key);
    },
    async deleteField(key, field) {
      if (!maps.delete(key, field)) return false;
      await log.append({ delField: key, field });
      return true;
    },
    // Down once the log refuses writes (or is closed): a session or counter written from then on would not outlive a restart.
    async ping() {
      return log.writable;
    },
    async close() {
      clearInterval(sweeper);
      await log.close();
      entries.clear();
      maps.clear();
      await unlock();
    },
  };
}
