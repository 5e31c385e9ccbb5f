import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Collection, DocumentStore, StoredDocument } from '../port';
import { CollectionLog, readLog } from './collection-log';
import { lockDirectory } from './directory-lock';
import { EmbeddedCollection } from './embedded-collection';

export interface EmbeddedStoreOptions {
  /** Where the collection logs live (created if missing). */
  dataDir: string;
  /** Sync every acknowledged write to disk (default true). Only tests and benchmarks turn it off. */
  fsync?: boolean;
}

const LOG_SUFFIX = '.jsonl';

function fileFor(dataDir: string, name: string): string {
  return join(dataDir, `${encodeURIComponent(name)}${LOG_SUFFIX}`);
}

/**
 * The embedded DocumentStore: every collection lives in memory and in an append-only log under
 * `dataDir`, so the all-in-one shape needs no database server. A write is acknowledged once its
 * log line is synced; reopening replays the logs.
 */
export async function createEmbeddedStore(options: EmbeddedStoreOptions): Promise<DocumentStore> {
  const { dataDir } = options;
  const fsync = options.fsync ?? true;
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDirectory(dataDir);
  const collections = new Map<string, { collection: EmbeddedCollection<StoredDocument>; log: CollectionLog }>();

  const attach = (name: string, state: { records: Parameters<EmbeddedCollection<StoredDocument>['replay']>[0]; validBytes: number }) => {
    const collection = new EmbeddedCollection<StoredDocument>(name);
    collection.replay(state.records);
    const log = new CollectionLog(fileFor(dataDir, name), {
      fsync,
      validBytes: state.validBytes,
      lineCount: state.records.length,
      snapshot: () => collection.snapshot(),
      liveCount: () => collection.size,
    });
    collection.attach(log);
    collections.set(name, { collection, log });
  };

  try {
    for (const file of await readdir(dataDir)) {
      if (!file.endsWith(LOG_SUFFIX)) continue;
      const name = decodeURIComponent(file.slice(0, -LOG_SUFFIX.length));
      attach(name, await readLog(join(dataDir, file)));
    }
  } catch (error) {
    await unlock();
    throw error;
  }

  let closed = false;
  return {
    kind: 'embedded',
    collection<T extends StoredDocument>(name: string): Collection<T> {
      if (closed) throw new Error('the embedded store is closed');
      if (!collections.has(name)) attach(name, { records: [], validBytes: 0 });
      return collections.get(name)?.collection as unknown as Collection<T>;
    },
    async ping() {
      return !closed;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...collections.values()].map(({ log }) => log.close()));
      await unlock();
    },
  };
}
