import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppendLog, lockDirectory, readLog, ReadGate, stderrReporter, type LogReporter } from '@platform/storage/log-files';
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
 * a key's time to live keeps running while the process is down. When the log fails, every write
 * is refused before it changes memory, and memory goes back to what the log holds (reads wait for
 * that, and are refused when the log cannot tell), as in the embedded document store.
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
  /** Memory as `records` leave it. */
  const load = (records: KeyValueLine[]) => {
    entries.clear();
    maps.clear();
    for (const record of records) {
      if ('del' in record) entries.delete(record.del);
      else if ('setField' in record) maps.restore(record.setField, record.field, { value: record.value, expiresAt: record.expiresAt });
      else if ('delField' in record) maps.delete(record.delField, record.field);
      else entries.set(record.set, { value: record.value, ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}) });
    }
    sweep();
  };
  const file = join(options.directory, LOG_FILE);
  const reporter = options.logger ?? stderrReporter;
  const gate = new ReadGate();
  /** After the log failed: memory as its first `durableBytes` hold it; rejects (reads refused) when those are not known or cannot be read. */
  const backToTheLog = async (durableBytes: number | undefined) => {
    try {
      if (durableBytes === undefined) throw new Error('the log failed while swapping in its compacted file: which file holds the writes is not known');
      load((await readLog<KeyValueLine>(file, { endAt: durableBytes })).records);
      reporter.warn({ file, keys: liveCount() }, `embedded key-value store: back to what its log holds (${liveCount()} keys); reads go on, writes are refused until the process restarts`);
    } catch (error) {
      reporter.error({ err: error, file }, `embedded key-value store: cannot tell what its log holds (${(error as Error).message}); reads are refused too until the process restarts`);
      throw error;
    }
  };

  let log: AppendLog;
  try {
    const { records, validBytes } = await readLog<KeyValueLine>(file);
    load(records);
    log = new AppendLog(file, {
      fsync: options.fsync ?? true,
      validBytes,
      lineCount: records.length,
      snapshot: () => snapshot().map((line) => JSON.stringify(line)),
      liveCount,
      reporter,
      onFailure: (_error, durableBytes) => gate.holdFor(backToTheLog(durableBytes)),
    });
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
  /** A write to a log that refuses writes is refused before it changes memory. */
  const refuseIfFailed = () => {
    if (log.refusal) throw log.refusal;
  };
  const write = (key: string, entry: Entry) => {
    entries.set(key, entry);
    return log.append({ set: key, value: entry.value, ...(entry.expiresAt !== undefined ? { expiresAt: entry.expiresAt } : {}) });
  };

  return {
    kind: 'embedded',
    async get(key) {
      // Reads wait while memory goes back to what a failed log holds (ReadGate).
      if (gate.closed) await gate.pass('kv');
      return live(key)?.value ?? null;
    },
    async set(key: string, value: string, setOptions: SetOptions = {}) {
      refuseIfFailed();
      if (setOptions.onlyIfAbsent && live(key)) return false;
      if (setOptions.onlyIfPresent && !live(key)) return false;
      if (setOptions.onlyIfValue !== undefined && live(key)?.value !== setOptions.onlyIfValue) return false;
      await write(key, { value, ...(setOptions.ttlMs !== undefined ? { expiresAt: now() + setOptions.ttlMs } : {}) });
      return true;
    },
    async increment(key, incrementOptions) {
      refuseIfFailed();
      const entry = live(key);
      if (!entry && incrementOptions.onlyIfPresent) return 0;
      const value = (entry ? Number(entry.value) || 0 : 0) + (incrementOptions.by ?? 1);
      await write(key, { value: String(value), expiresAt: entry?.expiresAt ?? now() + incrementOptions.ttlMs });
      return value;
    },
    async delete(key) {
      refuseIfFailed();
      if (live(key) === undefined) return false;
      entries.delete(key);
      await log.append({ del: key });
      return true;
    },
    async scan(prefix) {
      if (gate.closed) await gate.pass('kv');
      return liveWithPrefix(entries.keys(), prefix, live);
    },
    async setField(key, field, value, fieldOptions) {
      refuseIfFailed();
      const entry = maps.set(key, field, value, fieldOptions);
      if (!entry) return false;
      await log.append({ setField: key, field, value, expiresAt: entry.expiresAt });
      return true;
    },
    async fields(key) {
      if (gate.closed) await gate.pass('kv');
      return maps.fields(key);
    },
    async deleteField(key, field) {
      refuseIfFailed();
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
