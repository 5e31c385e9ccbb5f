import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreLockedError } from './directory-lock';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { FileStore } from './file-store';
import { IndexedDBStore } from './indexeddb-store';
import { MemoryStore, type LocalStore } from './local-store';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'sync-store-'));
  directories.push(directory);
  return directory;
}

describe.each([
  { name: 'MemoryStore', open: async () => new MemoryStore() as LocalStore },
  { name: 'FileStore', open: async () => (await FileStore.open(await freshDirectory())) as LocalStore },
  // fake-indexeddb implements the IndexedDB spec (and passes its web-platform tests) in Node.
  { name: 'IndexedDBStore', open: async () => (await IndexedDBStore.open('sync', { indexedDB: new IDBFactory(), IDBKeyRange })) as LocalStore },
])('$name', ({ open }) => {
  it('gets, lists, puts, deletes and clears per object store, returning copies', async () => {
    const store = await open();
    const value = { id: 'a', nested: { n: 1 } };
    await store.put('entities:t', 'a', value);
    await store.put('entities:t', 'b', { id: 'b' });
    await store.put('meta', 'cursor:t', 5);
    value.nested.n = 2;
    expect(await store.get('entities:t', 'a')).toEqual({ id: 'a', nested: { n: 1 } });
    expect((await store.getAll('entities:t')).length).toBe(2);
    await store.delete('entities:t', 'b');
    expect(await store.get('entities:t', 'b')).toBeUndefined();
    await store.clear('entities:t');
    expect(await store.getAll('entities:t')).toEqual([]);
    expect(await store.get('meta', 'cursor:t')).toBe(5);
    await store.close();
  });
});

describe('FileStore durability', () => {
  it('finds after reopening everything whose put resolved, and commits a burst of puts together', async () => {
    const directory = await freshDirectory();
    const store = await FileStore.open(directory);
    await Promise.all(Array.from({ length: 1_000 }, (_, index) => store.put('entities:tasks/x', `id${index}`, { id: `id${index}`, index })));
    await store.delete('entities:tasks/x', 'id0');
    await store.put('meta', 'cursor:tasks', 42);
    await store.close();
    const reopened = await FileStore.open(directory);
    expect((await reopened.getAll('entities:tasks/x')).length).toBe(999);
    expect(await reopened.get('entities:tasks/x', 'id999')).toEqual({ id: 'id999', index: 999 });
    expect(await reopened.get('meta', 'cursor:tasks')).toBe(42);
    await reopened.close();
    expect(await readdir(directory)).toEqual(['journal.log']);
  });

  it('rejects a value JSON cannot hold (a BigInt, a cycle, a function) and changes nothing, in memory or after reopening', async () => {
    const directory = await freshDirectory();
    const store = await FileStore.open(directory);
    await store.put('entities:t', 'a', { id: 'a', n: 1 });
    const cyclic: Record<string, unknown> = { id: 'a' };
    cyclic.self = cyclic;
    for (const value of [{ id: 'a', n: 10n }, cyclic, { id: 'a', fn: () => 1 }]) {
      await expect(store.put('entities:t', 'a', value)).rejects.toThrow();
      expect(await store.get('entities:t', 'a')).toEqual({ id: 'a', n: 1 });
    }
    await store.put('entities:t', 'b', { id: 'b' });
    await store.close();
    const reopened = await FileStore.open(directory);
    expect(await reopened.getAll('entities:t')).toEqual([{ id: 'a', n: 1 }, { id: 'b' }]);
    await reopened.close();
  });

  it('appends a write to its journal whatever the size of the store, and compacts the journal into snapshots once it outgrows them', async () => {
    const directory = await freshDirectory();
    const store = await FileStore.open(directory, { compactAfterBytes: 64 * 1024 });
    await Promise.all(Array.from({ length: 5_000 }, (_, index) => store.put('entities:t', `id${index}`, { id: `id${index}`, title: `document ${index}`, tags: ['a', 'b'] })));
    const snapshot = join(directory, 'entities%3At.json');
    const compacted = await stat(snapshot);
    expect(compacted.size).toBeGreaterThan(64 * 1024);
    const journalBefore = (await stat(join(directory, 'journal.log'))).size;
    await store.put('entities:t', 'id42', { id: 'id42', title: 'changed' });
    expect((await stat(join(directory, 'journal.log'))).size - journalBefore).toBeLessThan(100);
    expect((await stat(snapshot)).mtimeMs).toBe(compacted.mtimeMs);
    await store.delete('entities:t', 'id7');
    await store.close();
    const reopened = await FileStore.open(directory);
    expect((await reopened.getAll('entities:t')).length).toBe(4_999);
    expect(await reopened.get('entities:t', 'id42')).toEqual({ id: 'id42', title: 'changed' });
    expect(await reopened.get('entities:t', 'id7')).toBeUndefined();
    await reopened.close();
  });

  it('drops a journal line torn by a crash and keeps appending after the whole ones', async () => {
    const directory = await freshDirectory();
    const store = await FileStore.open(directory);
    await store.put('meta', 'a', 1);
    await store.close();
    await appendFile(join(directory, 'journal.log'), '["put","meta","b",');
    const reopened = await FileStore.open(directory);
    expect(await reopened.get('meta', 'b')).toBeUndefined();
    await reopened.put('meta', 'c', 3);
    await reopened.close();
    const again = await FileStore.open(directory);
    expect([await again.get('meta', 'a'), await again.get('meta', 'b'), await again.get('meta', 'c')]).toEqual([1, undefined, 3]);
    await again.close();
  });
});

describe('FileStore: one writer per directory', () => {
  it('refuses a second opener in the same process with a clear error, and opens again once the first is closed', async () => {
    const directory = await freshDirectory();
    const first = await FileStore.open(directory);
    await first.put('entities:notes', 'a', { id: 'a' });
    const refused = await FileStore.open(directory).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as Error).message).toContain(`${directory} is already open by process ${process.pid}`);
    await first.put('entities:notes', 'b', { id: 'b' });
    await first.close();
    const second = await FileStore.open(directory);
    expect((await second.getAll('entities:notes')).length).toBe(2);
    await second.close();
  });

  it('refuses the second of two opens started together, so two clients of one process never share it', async () => {
    const directory = await freshDirectory();
    const opened = await Promise.allSettled([FileStore.open(directory), FileStore.open(directory), FileStore.open(directory)]);
    const stores = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refusals = opened.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(stores).toHaveLength(1);
    expect(refusals).toHaveLength(2);
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(StoreLockedError);
    await stores[0]?.close();
    const again = await FileStore.open(directory);
    await again.close();
  });

  it('refuses a directory another live process holds, and takes over the lock of one that died', async () => {
    const directory = await freshDirectory();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(join(directory, 'LOCK'), String(holder.pid));
      await expect(FileStore.open(directory)).rejects.toThrow(`is already open by process ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    const store = await FileStore.open(directory);
    expect(await readFile(join(directory, 'LOCK'), 'utf8')).toBe(String(process.pid));
    await store.close();
  });
});

describe('IndexedDBStore batching', () => {
  it('reads see writes asked for before them, even while their batch waits', async () => {
    const store = await IndexedDBStore.open('sync', { indexedDB: new IDBFactory(), IDBKeyRange });
    void store.put('meta', 'cursor:t', 1);
    void store.put('meta', 'cursor:t', 2);
    expect(await store.get('meta', 'cursor:t')).toBe(2);
    await store.close();
  });
});

describe('IndexedDBStore durability', () => {
  it('finds after reopening the database everything whose put resolved', async () => {
    const environment = { indexedDB: new IDBFactory(), IDBKeyRange };
    const store = await IndexedDBStore.open('sync', environment);
    await Promise.all(Array.from({ length: 100 }, (_, index) => store.put('entities:tasks', `id${index}`, { id: `id${index}` })));
    await store.delete('entities:tasks', 'id0');
    await store.close();
    const reopened = await IndexedDBStore.open('sync', environment);
    expect((await reopened.getAll('entities:tasks')).length).toBe(99);
    expect(await reopened.get('entities:tasks', 'id99')).toEqual({ id: 'id99' });
    await reopened.close();
  });
});
