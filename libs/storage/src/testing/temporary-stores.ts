import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { createEmbeddedStore } from '../embedded/embedded-store';
import { createMongoStore } from '../mongodb/mongo-store';
import type { DocumentStore } from '../port';

/** A store of a test's own and what removes it, with everything it holds, afterwards. */
export interface TemporaryStore {
  store: DocumentStore;
  dispose(): Promise<void>;
}

/** An embedded store in a fresh directory below the system's temporary one, named `<prefix>-…`. */
export async function temporaryEmbeddedStore(prefix: string): Promise<TemporaryStore> {
  const dataDir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  const store = await createEmbeddedStore({ dataDir });
  return {
    store,
    dispose: async () => {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A store on a fresh database `<prefix>_<random>` of the MongoDB server at `url`, dropped by `dispose`. */
export async function temporaryMongoStore(url: string, prefix: string): Promise<TemporaryStore> {
  const database = `${prefix}_${randomUUID().slice(0, 8)}`;
  const store = await createMongoStore({ url, database });
  return {
    store,
    dispose: async () => {
      await store.close();
      const client = await MongoClient.connect(url);
      await client.db(database).dropDatabase();
      await client.close();
    },
  };
}

export { interleavedReads, type InterleavedReads } from './interleaved-reads';
export { readRendezvous, type ReadRendezvous } from './read-rendezvous';
export { failWritesTo } from './failing-disk';
