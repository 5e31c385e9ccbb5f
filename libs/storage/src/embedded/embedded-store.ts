import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StoreUnavailableError, type BackupSummary, type Collection, type DocumentStore, type StoredDocument } from '../port';
import { writeLogFile, type AppendLogOptions } from './append-log';
import { readLog } from './read-log';
import { serveControlSocket } from './control-socket';
import { lockDirectory } from './directory-lock';
import { EmbeddedCollection } from './embedded-collection';
import { stderrReporter, type LogReporter } from './log-reporter';
import { ReadGate } from './read-gate';
import { sectionStore } from './section-store';
import { recordsByCollection, StoreLog, type CollectionRecord, type StoreLogLine } from './store-log';
import { snapshotLines } from './store-snapshot';

export interface EmbeddedStoreOptions {
  /** Where the store's log lives (created if missing). */
  dataDir: string;
  /** Sync every acknowledged write to disk (default true). Only tests and benchmarks turn it off. */
  fsync?: boolean;
  /** Answer backup requests from tools on `DATA_DIR/control.sock` (the platform turns this on). */
  controlSocket?: boolean;
  /**
   * Where the log reports a failed compaction and a failure that stops its writes, and replay two
   * documents it found holding one unique key (stderr when not given).
   */
  logger?: LogReporter;
}

/** What opening the store found: for the start-up log line and the memory budget. */
export interface EmbeddedStoreStats {
  collections: number;
  documents: number;
  /** Bytes of the log on disk. */
  logBytes: number;
  /** Milliseconds the open took (reading and replaying the log). */
  loadMs: number;
}

export interface EmbeddedDocumentStore extends DocumentStore {
  readonly kind: 'embedded';
  /** Counts of the store as it is now, and how long the open took. */
  stats(): EmbeddedStoreStats;
  backup(directory?: string): Promise<BackupSummary>;
}

export function isEmbeddedStore(store: DocumentStore): store is EmbeddedDocumentStore {
  return store.kind === 'embedded' && 'stats' in store;
}

/** The write-ahead log's file. Collection logs were `<name>.jsonl`, a name no collection can give this one. */
export const STORE_LOG_FILE = 'store.wal';
const LEGACY_LOG_SUFFIX = '.jsonl';

type Collections = Map<string, EmbeddedCollection<StoredDocument>>;

/**
 * Reads the store's state. A directory from before the single log (one `<collection>.jsonl` per
 * collection) is converted: its logs are replayed, written as one log, and removed once that log
 * is in place, so a crash in between converts again or finds the finished log.
 */
async function readState(dataDir: string, warn: LogReporter['warn']): Promise<{ byCollection: Map<string, CollectionRecord[]>; validBytes: number; lineCount: number }> {
  const file = join(dataDir, STORE_LOG_FILE);
  const legacyFiles = (await readdir(dataDir)).filter((name) => name.endsWith(LEGACY_LOG_SUFFIX));
  const exists = await stat(file).then(
    () => true,
    () => false,
  );
  if (exists || legacyFiles.length === 0) {
    const { records, validBytes } = await readLog<StoreLogLine>(file);
    await Promise.all(legacyFiles.map((name) => rm(join(dataDir, name), { force: true })));
    return { byCollection: recordsByCollection(records), validBytes, lineCount: records.length };
  }
  const byCollection = new Map<string, CollectionRecord[]>();
  for (const name of legacyFiles) {
    byCollection.set(decodeURIComponent(name.slice(0, -LEGACY_LOG_SUFFIX.length)), (await readLog<CollectionRecord>(join(dataDir, name))).records);
  }
  const converted: Collections = new Map();
  for (const [name, records] of byCollection) {
    const collection = new EmbeddedCollection<StoredDocument>(name);
    collection.replay(records, warn);
    converted.set(name, collection);
  }
  await writeLogFile(file, snapshotLines(converted));
  return readState(dataDir, warn);
}

/**
 * The embedded DocumentStore: every collection lives in memory and all of them share one
 * append-only write-ahead log under `dataDir`, so the all-in-one shape needs no database server.
 * A write is acknowledged once its log line is synced; reopening replays the log.
 * When the log fails (a full disk, an I/O error), the store turns read-only until the process
 * restarts: every write is refused (StoreUnavailableError), memory is brought back to what the
 * log holds (the writes that failed were applied in memory first), and reads wait for that; when
 * the log cannot tell what it holds (its compaction failed while swapping files), reads are
 * refused too.
 */
export async function createEmbeddedStore(options: EmbeddedStoreOptions): Promise<EmbeddedDocumentStore> {
  const { dataDir } = options;
  const fsync = options.fsync ?? true;
  const started = performance.now();
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDirectory(dataDir);
  const collections: Collections = new Map();
  const documentCount = () => {
    let count = 0;
    for (const collection of collections.values()) count += collection.size;
    return count;
  };

  /** Set once the log refuses every write: from then on the store answers ping with false. */
  let logFailure: Error | undefined;
  const gate = new ReadGate();
  // Replay's warnings (two documents holding one unique key) go where the log's own trouble goes.
  const reporter = options.logger ?? stderrReporter;
  const warn: LogReporter['warn'] = (fields, message) => reporter.warn(fields, message);
  let log: StoreLog;
  try {
    const state = await readState(dataDir, warn);
    // Index lines are live too: the AppendLog learns their number at each compaction.
    const logOptions: Omit<AppendLogOptions, 'snapshot'> = {
      fsync,
      validBytes: state.validBytes,
      lineCount: state.lineCount,
      liveCount: documentCount,
      reporter,
      onFailure: (error, durableBytes) => {
        logFailure = error;
        gate.holdFor(backToTheLog(durableBytes));
      },
    };
    log = new StoreLog(join(dataDir, STORE_LOG_FILE), logOptions, () => snapshotLines(collections));
    for (const [name, records] of state.byCollection) {
      const collection = new EmbeddedCollection<StoredDocument>(name, gate);
      collection.replay(records, warn);
      collection.attach(log.writerFor(name, (id) => collection.currentJson(id)));
      collections.set(name, collection);
    }
  } catch (error) {
    await unlock();
    throw error;
  }
  const loadMs = Math.round(performance.now() - started);

  /**
   * After the log failed: memory as the log's first `durableBytes` hold it, every collection
   * rebuilt in place (handles stay valid). Rejects, and so refuses reads for good, when the
   * log does not know which bytes are durable or they cannot be read.
   */
  async function backToTheLog(durableBytes: number | undefined): Promise<void> {
    const file = join(dataDir, STORE_LOG_FILE);
    try {
      if (durableBytes === undefined) throw new Error('the log failed while swapping in its compacted file: which file holds the writes is not known');
      const { records } = await readLog<StoreLogLine>(file, { endAt: durableBytes });
      const byCollection = recordsByCollection(records);
      for (const name of byCollection.keys()) collectionNamed(name);
      for (const [name, collection] of collections) collection.reload(byCollection.get(name) ?? [], warn);
      reporter.warn({ file, documents: documentCount() }, `embedded store: back to what its log holds (${documentCount()} documents); reads go on, writes are refused until the process restarts`);
    } catch (error) {
      reporter.error({ err: error, file }, `embedded store: cannot tell what its log holds (${(error as Error).message}); reads are refused too until the process restarts`);
      throw error;
    }
  }

  let closed = false;
  const backup = async (directory = join(dataDir, 'backups', `backup-${new Date().toISOString().replace(/[:.]/g, '-')}`)): Promise<BackupSummary> => {
    if (closed) throw new Error('the embedded store is closed');
    // After a log failure, a backup holds what the log holds, not the writes that failed.
    if (gate.closed) await gate.pass('(every collection, for a backup)');
    const backupStarted = performance.now();
    const target = resolve(directory);
    await mkdir(target, { recursive: true });
    if ((await readdir(target)).length > 0) throw new Error(`the backup directory ${target} is not empty`);
    const { bytes, lines } = await writeLogFile(join(target, STORE_LOG_FILE), await log.snapshot());
    return { directory: target, bytes, records: lines, durationMs: Math.round(performance.now() - backupStarted) };
  };
  let stopControlSocket = async () => {};
  try {
    if (options.controlSocket) stopControlSocket = await serveControlSocket(dataDir, { backup });
  } catch (error) {
    await log.close();
    await unlock();
    throw error;
  }
  const collectionNamed = (name: string): EmbeddedCollection<StoredDocument> => {
    if (closed) throw new Error('the embedded store is closed');
    let collection = collections.get(name);
    if (!collection) {
      const created = new EmbeddedCollection<StoredDocument>(name, gate);
      created.attach(log.writerFor(name, (id) => created.currentJson(id)));
      collections.set(name, (collection = created));
    }
    return collection;
  };
  return {
    kind: 'embedded',
    collection: <T extends StoredDocument>(name: string) => collectionNamed(name) as unknown as Collection<T>,
    async atomically(work) {
      try {
        return await log.atomically((section) => work(sectionStore(log, section, collectionNamed)));
      } catch (error) {
        // The section's line was refused by a log that failed: the store is unavailable, not broken.
        throw error !== undefined && error === log.refusal ? new StoreUnavailableError('an atomic section', error) : error;
      }
    },
    // The emptied collection stays in the map (handles to it stay valid) until the store reopens without it.
    async dropCollection(name) {
      if (closed) throw new Error('the embedded store is closed');
      await collections.get(name)?.drop();
    },
    backup,
    stats: () => ({ collections: [...collections.values()].filter((collection) => !collection.isEmpty).length, documents: documentCount(), logBytes: log.size, loadMs }),
    // Down once the log refuses writes, so health says so: nothing written from then on would outlive a restart.
    async ping() {
      return !closed && logFailure === undefined;
    },
    async close() {
      if (closed) return;
      closed = true;
      await stopControlSocket();
      await log.close();
      await unlock();
    },
  };
}
