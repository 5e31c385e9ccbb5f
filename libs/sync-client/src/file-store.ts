import { mkdir, open, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { lockDirectory } from './directory-lock.js';
import type { LocalStore } from './local-store.js';

export { StoreLockedError } from './directory-lock.js';

interface ObjectStore {
  entries: Map<string, unknown>;
  /** Writes waiting for the next commit of this store's file. */
  waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
  writing: Promise<void> | undefined;
}

const fileName = (storeName: string) => `${encodeURIComponent(storeName)}.json`;

/**
 * A durable store for Node: each object store is one JSON file under `directory`, rewritten
 * atomically (temporary file, fsync, rename) so a crash leaves the old or the new contents, never a
 * torn file. A `put` or `delete` resolves once its change is on disk; changes made while a write is
 * in progress are committed together by the next one (group commit), so a pull of 1,000 documents
 * costs one file write, not 1,000. One writer per directory: `open` takes a lock file and refuses a
 * second opener (StoreLockedError) until `close`.
 */
export class FileStore implements LocalStore {
  private readonly stores = new Map<string, ObjectStore>();
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly directory: string,
    private readonly unlock: () => Promise<void>,
  ) {}

  /**
   * Opens (creating if needed) the directory, locks it and loads every object store in it. Rejects
   * with StoreLockedError while another FileStore (this process or another) has it open.
   */
  static async open(directory: string): Promise<FileStore> {
    await mkdir(directory, { recursive: true });
    const unlock = await lockDirectory(directory);
    const store = new FileStore(directory, unlock);
    try {
      for (const name of await readdir(directory)) {
        if (!name.endsWith('.json')) continue;
        const entries = JSON.parse(await readFile(join(directory, name), 'utf8')) as Record<string, unknown>;
        store.stores.set(decodeURIComponent(name.slice(0, -'.json'.length)), { entries: new Map(Object.entries(entries)), waiting: [], writing: undefined });
      }
    } catch (error) {
      await unlock();
      throw error;
    }
    return store;
  }

  private store(name: string): ObjectStore {
    let store = this.stores.get(name);
    if (!store) this.stores.set(name, (store = { entries: new Map(), waiting: [], writing: undefined }));
    return store;
  }

  async get<T>(storeName: string, key: string): Promise<T | undefined> {
    const value = this.store(storeName).entries.get(key);
    return value === undefined ? undefined : structuredClone(value as T);
  }

  async getAll<T>(storeName: string): Promise<T[]> {
    return [...this.store(storeName).entries.values()].map((value) => structuredClone(value as T));
  }

  async put<T>(storeName: string, key: string, value: T): Promise<void> {
    this.store(storeName).entries.set(key, structuredClone(value));
    return this.commit(storeName);
  }

  async delete(storeName: string, key: string): Promise<void> {
    this.store(storeName).entries.delete(key);
    return this.commit(storeName);
  }

  async clear(storeName: string): Promise<void> {
    this.store(storeName).entries.clear();
    return this.commit(storeName);
  }

  /** Waits for pending writes, then releases the directory. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      await Promise.all([...this.stores.values()].map((store) => store.writing));
      await this.unlock();
    })();
    return this.closed;
  }

  private commit(storeName: string): Promise<void> {
    const store = this.store(storeName);
    const done = new Promise<void>((resolve, reject) => store.waiting.push({ resolve, reject }));
    if (!store.writing) store.writing = this.writeLoop(storeName, store);
    return done;
  }

  private async writeLoop(storeName: string, store: ObjectStore): Promise<void> {
    // Let the current burst of puts (one pulled page) join before writing.
    await new Promise((resolve) => setImmediate(resolve));
    while (store.waiting.length > 0) {
      const batch = store.waiting.splice(0);
      try {
        await this.writeFile(storeName, store);
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    store.writing = undefined;
  }

  private async writeFile(storeName: string, store: ObjectStore): Promise<void> {
    const target = join(this.directory, fileName(storeName));
    const temporary = `${target}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(JSON.stringify(Object.fromEntries(store.entries)));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  }
}
