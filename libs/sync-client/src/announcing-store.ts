import type { LocalStore } from './local-store.js';
import type { TabCoordinator } from './tab-coordinator.js';

/**
 * A `LocalStore` shared by several tabs: every committed write is announced to the other tabs, so
 * they read the changed record again instead of keeping a stale copy in memory.
 */
export class AnnouncingStore implements LocalStore {
  constructor(
    private readonly store: LocalStore,
    private readonly tabs: TabCoordinator,
  ) {}

  get<T>(storeName: string, key: string): Promise<T | undefined> {
    return this.store.get(storeName, key);
  }

  getAll<T>(storeName: string): Promise<T[]> {
    return this.store.getAll(storeName);
  }

  async put<T>(storeName: string, key: string, value: T): Promise<void> {
    await this.store.put(storeName, key, value);
    this.tabs.announce({ storeName, key });
  }

  async delete(storeName: string, key: string): Promise<void> {
    await this.store.delete(storeName, key);
    this.tabs.announce({ storeName, key });
  }

  async clear(storeName: string): Promise<void> {
    await this.store.clear(storeName);
    this.tabs.announce({ storeName });
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
