/**
 * Where the client keeps its copy. Shaped like IndexedDB object stores (named stores, string keys,
 * get / getAll / put / delete / clear, all asynchronous), so a browser store is a thin wrapper over
 * `IDBObjectStore`. A resolved `put` or `delete` must be durable for stores that claim durability.
 */
export interface LocalStore {
  get<T>(storeName: string, key: string): Promise<T | undefined>;
  getAll<T>(storeName: string): Promise<T[]>;
  put<T>(storeName: string, key: string, value: T): Promise<void>;
  delete(storeName: string, key: string): Promise<void>;
  clear(storeName: string): Promise<void>;
  close(): Promise<void>;
}

/** Values are cloned on the way in and out, as IndexedDB's structured clone does. */
const clone = <T>(value: T): T => structuredClone(value);

/**
 * Keeps everything in memory: for tests, and for clients that do not need to survive a restart.
 * FileStore reads from these maps too, and makes each write durable before it resolves.
 */
export class MemoryStore implements LocalStore {
  protected readonly stores = new Map<string, Map<string, unknown>>();

  protected store(name: string): Map<string, unknown> {
    let store = this.stores.get(name);
    if (!store) this.stores.set(name, (store = new Map()));
    return store;
  }

  async get<T>(storeName: string, key: string): Promise<T | undefined> {
    const value = this.store(storeName).get(key);
    return value === undefined ? undefined : clone(value as T);
  }

  async getAll<T>(storeName: string): Promise<T[]> {
    return [...this.store(storeName).values()].map((value) => clone(value as T));
  }

  async put<T>(storeName: string, key: string, value: T): Promise<void> {
    this.store(storeName).set(key, clone(value));
  }

  async delete(storeName: string, key: string): Promise<void> {
    this.store(storeName).delete(key);
  }

  async clear(storeName: string): Promise<void> {
    this.store(storeName).clear();
  }

  async close(): Promise<void> {}
}
