import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
    const reopened = await FileStore.open(directory);
    expect((await reopened.getAll('entities:tasks/x')).length).toBe(999);
    expect(await reopened.get('entities:tasks/x', 'id999')).toEqual({ id: 'id999', index: 999 });
    expect(await reopened.get('meta', 'cursor:tasks')).toBe(42);
    expect((await readdir(directory)).sort()).toEqual(['entities%3Atasks%2Fx.json', 'meta.json']);
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
