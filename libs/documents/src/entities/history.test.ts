import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, type DocumentStore } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeChange, type OutboxEntry } from './entity';
import { History } from './history';

const COLLECTION = 'tenant-p1-tasks';
const entry = (revision: number): OutboxEntry => ({ revision, userId: 'u1', timestamp: 1_000 + revision, baseRevision: revision - 1, modifier: { $set: { n: revision } } });
const revisionsOf = (changes: Array<{ timestamp: number }>) => changes.map((change) => change.timestamp - 1_000);

/** The store, counting the reads that reach its history collection. */
function countingHistoryReads(store: DocumentStore): { store: DocumentStore; reads: () => number } {
  let reads = 0;
  const counting: DocumentStore = Object.create(store) as DocumentStore;
  counting.collection = ((name: string) => {
    const collection = store.collection(name);
    if (!name.endsWith('.history')) return collection;
    return Object.assign(Object.create(collection) as typeof collection, {
      find: (...args: Parameters<typeof collection.find>) => {
        reads += 1;
        return collection.find(...args);
      },
    });
  }) as DocumentStore['collection'];
  return { store: counting, reads: () => reads };
}

describe('History', () => {
  let store: DocumentStore;

  beforeEach(async () => {
    store = await createEmbeddedStore({ dataDir: await mkdtemp(join(tmpdir(), 'history-')), fsync: false });
  });

  afterEach(async () => {
    await store.close();
  });

  it('answers the changes up to the revision asked for, not those another replica appended since', async () => {
    const writer = new History(store);
    for (const revision of [0, 1, 2, 3]) await writer.append(COLLECTION, 'e1', entry(revision));
    const reader = new History(store);
    expect(revisionsOf(await reader.changes(COLLECTION, { id: 'e1', revision: 2 }))).toEqual([0, 1, 2]);
    expect(revisionsOf(await reader.changes(COLLECTION, { id: 'e1', revision: 3 }))).toEqual([0, 1, 2, 3]);
    expect(revisionsOf(await writer.changes(COLLECTION, { id: 'e1', revision: 1 }))).toEqual([0, 1]);
  });

  it('answers a write from the prefix its own appends built, without reading the store', async () => {
    const counted = countingHistoryReads(store);
    const history = new History(counted.store);
    for (const revision of [0, 1, 2]) await history.append(COLLECTION, 'e1', entry(revision));
    expect(revisionsOf(await history.changes(COLLECTION, { id: 'e1', revision: 2 }))).toEqual([0, 1, 2]);
    expect(counted.reads()).toBe(0);
  });

  it('reads the store for what its prefix lacks, and adds what is still in the outbox', async () => {
    const counted = countingHistoryReads(store);
    const history = new History(counted.store);
    await new History(store).append(COLLECTION, 'e1', entry(0));
    await history.append(COLLECTION, 'e1', entry(1));
    const _outbox = [storeChange(entry(2))];
    expect(revisionsOf(await history.changes(COLLECTION, { id: 'e1', revision: 2, _outbox }))).toEqual([0, 1, 2]);
    expect(counted.reads()).toBe(1);
    expect(revisionsOf(await history.changes(COLLECTION, { id: 'e1', revision: 1 }, 0))).toEqual([1]);
    expect(counted.reads()).toBe(1);
  });

  it('answers a range of revisions, from the store on a cold replica, and never an outbox entry above the range', async () => {
    const counted = countingHistoryReads(store);
    for (const revision of [0, 1, 2, 3, 4]) await new History(store).append(COLLECTION, 'e1', entry(revision));
    const cold = new History(counted.store);
    const _outbox = [storeChange(entry(5)), storeChange(entry(6))];
    expect(revisionsOf(await cold.changes(COLLECTION, { id: 'e1', revision: 3, _outbox }, 1))).toEqual([2, 3]);
    expect(counted.reads()).toBe(1);
    expect(revisionsOf(await cold.changes(COLLECTION, { id: 'e1', revision: 5, _outbox }, 3))).toEqual([4, 5]);
  });

  it('answers an erased history from the store, on the replica that erased it and on one whose cache still holds it', async () => {
    const eraser = new History(store);
    const other = new History(store);
    for (const revision of [0, 1, 2]) await eraser.append(COLLECTION, 'e1', entry(revision));
    expect(revisionsOf(await other.changes(COLLECTION, { id: 'e1', revision: 2 }))).toEqual([0, 1, 2]);
    await eraser.append(COLLECTION, 'e1', entry(3));
    await eraser.erase(COLLECTION, 'e1', 3);
    const tombstone = { id: 'e1', revision: 3, deletedAt: 2_000 };
    expect(revisionsOf(await eraser.changes(COLLECTION, tombstone))).toEqual([3]);
    expect(revisionsOf(await other.changes(COLLECTION, tombstone))).toEqual([3]);
  });

  it('answers changesJson with the text of changes(): from the kept texts for a write, encoded anew otherwise', async () => {
    const counted = countingHistoryReads(store);
    const history = new History(counted.store);
    for (const revision of [0, 1, 2]) await history.append(COLLECTION, 'e1', entry(revision));
    const written = { id: 'e1', revision: 2, _outbox: [storeChange(entry(2))] };
    expect(await history.changesJson(COLLECTION, written)).toBe(JSON.stringify(await history.changes(COLLECTION, written)));
    const older = { id: 'e1', revision: 1 };
    expect(await history.changesJson(COLLECTION, older)).toBe(JSON.stringify(await history.changes(COLLECTION, older)));
    expect(revisionsOf(JSON.parse(await history.changesJson(COLLECTION, older)) as Array<{ timestamp: number }>)).toEqual([0, 1]);
    expect(counted.reads()).toBe(0);

    // A change still in the outbox and not yet in history, a cold replica, a soft-deleted entity.
    const pending = { id: 'e1', revision: 3, _outbox: [storeChange(entry(3))] };
    expect(revisionsOf(JSON.parse(await history.changesJson(COLLECTION, pending)) as Array<{ timestamp: number }>)).toEqual([0, 1, 2, 3]);
    const cold = new History(store);
    expect(await cold.changesJson(COLLECTION, written)).toBe(JSON.stringify(await history.changes(COLLECTION, written)));
    await history.append(COLLECTION, 'e1', entry(3));
    await history.erase(COLLECTION, 'e1', 3);
    expect(revisionsOf(JSON.parse(await history.changesJson(COLLECTION, { ...pending, deletedAt: 2_000 })) as Array<{ timestamp: number }>)).toEqual([3]);
  });
});
