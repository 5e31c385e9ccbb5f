/// <reference lib="dom" />
import type { LocalStore } from './local-store.js';

/** The one object store holding every record, keyed `[storeName, key]`. */
const RECORDS = 'records';

function request<T>(operation: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result);
    operation.onerror = () => reject(operation.error);
  });
}

/** The browser's IndexedDB globals, given explicitly where there are none (tests in Node). */
export interface IndexedDBEnvironment {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

/**
 * A `LocalStore` on the browser's IndexedDB. The client's named stores (`entities:{typeId}`,
 * `meta`) come and go with its collections, while IndexedDB only creates object stores in a version
 * upgrade; so all of them share one object store under `[storeName, key]`, and a named store is a
 * key range. Values are structured clones, as the contract asks. A `put` or `delete` resolves when
 * its transaction has committed.
 */
interface WriteBatch {
  operations: Array<(records: IDBObjectStore) => void>;
  done: Promise<void>;
}

export class IndexedDBStore implements LocalStore {
  private batch: WriteBatch | undefined;

  private constructor(
    private readonly db: IDBDatabase,
    private readonly keyRange: typeof IDBKeyRange,
  ) {}

  /** Opens (creating if needed) the database `name`, by default with the browser's globals. */
  static async open(name: string, environment: IndexedDBEnvironment = { indexedDB, IDBKeyRange }): Promise<IndexedDBStore> {
    const opening = environment.indexedDB.open(name, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(RECORDS);
    return new IndexedDBStore(await request(opening), environment.IDBKeyRange);
  }

  /** Every key of one named store: `[storeName, k]` for any string `k` (arrays sort after strings). */
  private wholeStore(storeName: string): IDBKeyRange {
    return this.keyRange.bound([storeName], [storeName, []]);
  }

  private async read<T>(operation: (records: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    // A read sees every write asked for before it, even one still waiting for its batch.
    if (this.batch) await this.batch.done.catch(() => undefined);
    return request(operation(this.db.transaction(RECORDS, 'readonly').objectStore(RECORDS)));
  }

  /**
   * Writes asked for in the same task share one transaction: the client saves a pulled page as one
   * put per entity, and a transaction each made the first pull of 10,000 entities take seconds.
   * Each promise still resolves only once its transaction has committed.
   */
  private write(operation: (records: IDBObjectStore) => void): Promise<void> {
    if (!this.batch) {
      const operations: WriteBatch['operations'] = [];
      const done = new Promise<void>((resolve, reject) => {
        setTimeout(() => {
          this.batch = undefined;
          const transaction = this.db.transaction(RECORDS, 'readwrite');
          const records = transaction.objectStore(RECORDS);
          for (const queued of operations) queued(records);
          transaction.oncomplete = () => resolve();
          transaction.onerror = () => reject(transaction.error);
          transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
        }, 0);
      });
      this.batch = { operations, done };
    }
    this.batch.operations.push(operation);
    return this.batch.done;
  }

  async get<T>(storeName: string, key: string): Promise<T | undefined> {
    return (await this.read((records) => records.get([storeName, key]))) as T | undefined;
  }

  async getAll<T>(storeName: string): Promise<T[]> {
    return (await this.read((records) => records.getAll(this.wholeStore(storeName)))) as T[];
  }

  put<T>(storeName: string, key: string, value: T): Promise<void> {
    return this.write((records) => records.put(value, [storeName, key]));
  }

  delete(storeName: string, key: string): Promise<void> {
    return this.write((records) => records.delete([storeName, key]));
  }

  clear(storeName: string): Promise<void> {
    return this.write((records) => records.delete(this.wholeStore(storeName)));
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
