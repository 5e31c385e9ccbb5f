import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore } from './file-store';
import { MemoryStore, SyncError } from './index';
import { sdkTestProject } from './test-support/sdk-test-project';
import { comparable } from './testing';
import type { EntityRecord } from './types';

/** Writes that must not be lost, come back, or hold back others: values JSON cannot carry, keys the server refuses, a delete after a lost answer. */
const project = sdkTestProject({ typePrefix: 'w', realtime: true, members: [] });
const { client, freshType, dataPath } = project;

async function serverDocuments(typeId: string): Promise<Array<Record<string, unknown>>> {
  const response = await project.platform.call('GET', `${dataPath(typeId)}?updatedAt=0`, { token: project.owner });
  expect(response.status).toBe(200);
  return response.body.items.filter((item: { deletedAt?: number }) => item.deletedAt === undefined);
}

async function refusal(write: () => Promise<unknown>): Promise<SyncError> {
  const refused = await write().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(SyncError);
  return refused as SyncError;
}

describe('values JSON cannot carry', () => {
  it('are refused by insert and update with SYNC_INVALID_VALUE, naming the field, before anything changes; every other write is pushed', async () => {
    const [notes, tasks] = [await freshType(), await freshType()];
    const alice = client({ collections: [notes, tasks], token: project.owner });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const kept = await alice.collection(notes).insert({ title: 'kept' });
    const refused: Array<[string, string]> = [];
    for (const fields of [{ n: 10n }, { nested: { list: [1, cyclic] } }, { ratio: Number.NaN }, { size: Number.POSITIVE_INFINITY }, { when: new Date(0) }, { fn: () => 1 }, { list: [1, undefined] }]) {
      const error = await refusal(() => alice.collection(notes).insert({ title: 'bad', ...fields }));
      refused.push([error.code as string, error.message.split(':')[0] as string]);
      const updated = await refusal(() => alice.collection(notes).update(kept.id, { title: 'not this', ...fields }));
      expect(updated.code).toBe('SYNC_INVALID_VALUE');
    }
    expect(refused).toEqual([
      ['SYNC_INVALID_VALUE', 'Field n'],
      ['SYNC_INVALID_VALUE', 'Field nested.list[1].self'],
      ['SYNC_INVALID_VALUE', 'Field ratio'],
      ['SYNC_INVALID_VALUE', 'Field size'],
      ['SYNC_INVALID_VALUE', 'Field when'],
      ['SYNC_INVALID_VALUE', 'Field fn'],
      ['SYNC_INVALID_VALUE', 'Field list[1]'],
    ]);
    // Nothing of the refused writes is in the copy, and the refused updates touched nothing.
    expect(alice.collection(notes).list().map(({ title }) => title)).toEqual(['kept']);
    expect(alice.collection(notes).pendingCount()).toBe(1);
    // An undefined property of an object is dropped, as JSON drops it: the copy holds what the server will.
    const task = await alice.collection(tasks).insert({ title: 'task', detail: { a: 1, b: undefined } });
    expect(task.detail).toEqual({ a: 1 });
    expect(Object.keys(task.detail as object)).toEqual(['a']);

    await alice.sync();
    expect([alice.collection(notes).state(kept.id), alice.collection(tasks).state(task.id)]).toEqual(['synced', 'synced']);
    expect(comparable(await serverDocuments(notes))).toEqual([{ id: kept.id, revision: 0, title: 'kept' }]);
    expect(comparable(await serverDocuments(tasks))).toEqual([{ id: task.id, revision: 0, title: 'task', detail: { a: 1 } }]);
  });

  it('a queued write JSON cannot serialise (stored by an older client) becomes a rejected conflict, and holds back no other write', async () => {
    const [notes, tasks] = [await freshType(), await freshType()];
    const store = new MemoryStore();
    const poisoned: EntityRecord = { id: 'poisoned', local: { title: 'count', n: 10n }, deleted: false, touched: ['title', 'n'], seq: 1 };
    await store.put(`entities:${notes}`, poisoned.id, poisoned);
    const alice = client({ collections: [notes, tasks], token: project.owner, store });
    const beside = await alice.collection(notes).insert({ title: 'beside it' });
    const elsewhere = await alice.collection(tasks).insert({ title: 'in another collection' });
    await alice.sync();
    expect([alice.collection(notes).state(beside.id), alice.collection(tasks).state(elsewhere.id)]).toEqual(['synced', 'synced']);
    expect(alice.collection(notes).state('poisoned')).toBe('conflict');
    expect(alice.collection(notes).conflict('poisoned')).toMatchObject({ reason: 'rejected', error: { status: 0, code: 'SYNC_INVALID_VALUE' } });
    expect((await serverDocuments(notes)).map(({ id }) => id)).toEqual([beside.id]);
    // The fix: an update of the field pushes it.
    await alice.collection(notes).update('poisoned', { n: 10 });
    await alice.sync();
    expect(alice.collection(notes).state('poisoned')).toBe('synced');
  });

  it('a write the store fails to save is undone in the copy: insert, update and remove reject and leave it as it was', async () => {
    const notes = await freshType();
    let failing = false;
    class FailingStore extends MemoryStore {
      override async put<T>(storeName: string, key: string, value: T): Promise<void> {
        if (failing) throw new Error('disk full');
        return super.put(storeName, key, value);
      }

      override async delete(storeName: string, key: string): Promise<void> {
        if (failing) throw new Error('disk full');
        return super.delete(storeName, key);
      }
    }
    const alice = client({ collections: [notes], token: project.owner, store: new FailingStore() });
    const kept = await alice.collection(notes).insert({ title: 'kept' });
    failing = true;
    await expect(alice.collection(notes).insert({ title: 'never saved' })).rejects.toThrow('disk full');
    await expect(alice.collection(notes).update(kept.id, { title: 'never saved', extra: 1 })).rejects.toThrow('disk full');
    await expect(alice.collection(notes).remove(kept.id)).rejects.toThrow('disk full');
    expect(alice.collection(notes).list()).toEqual([{ id: kept.id, title: 'kept' }]);
    expect(alice.collection(notes).pendingCount()).toBe(1);
    failing = false;
    await alice.sync();
    expect(comparable(await serverDocuments(notes))).toEqual([{ id: kept.id, revision: 0, title: 'kept' }]);
    // Once on the server a remove is a queued delete (a put): undone the same way.
    failing = true;
    await expect(alice.collection(notes).remove(kept.id)).rejects.toThrow('disk full');
    expect([alice.collection(notes).get(kept.id)?.title, alice.collection(notes).state(kept.id)]).toEqual(['kept', 'synced']);
  });
});

describe('keys the server refuses', () => {
  it('are refused locally at any depth (SYNC_FORBIDDEN_KEY); a queued write holding one is the only write of its batch to become a conflict', async () => {
    const notes = await freshType();
    const store = new MemoryStore();
    const queued = (id: string, local: Record<string, unknown>): EntityRecord => ({ id, local, deleted: false, touched: Object.keys(local), seq: 1 });
    // Queued by an older client: the server refuses the whole request holding it (400 JSON_FORBIDDEN_KEY).
    await store.put(`entities:${notes}`, 'poisoned', queued('poisoned', { title: 'poisoned', meta: { constructor: { prototype: { x: 1 } } } }));
    for (const index of [1, 2, 3, 4]) await store.put(`entities:${notes}`, `fine${index}`, queued(`fine${index}`, { title: `fine ${index}` }));
    const alice = client({ collections: [notes], token: project.owner, store });
    await alice.push();
    const collection = alice.collection(notes);
    expect(['fine1', 'fine2', 'fine3', 'fine4', 'poisoned'].map((id) => collection.state(id))).toEqual(['synced', 'synced', 'synced', 'synced', 'conflict']);
    expect(collection.conflicts()).toMatchObject([{ id: 'poisoned', conflict: { reason: 'rejected', error: { status: 400, code: 'JSON_FORBIDDEN_KEY' } } }]);
    expect((await serverDocuments(notes)).map(({ id }) => id).sort()).toEqual(['fine1', 'fine2', 'fine3', 'fine4']);

    for (const write of [
      () => collection.update('fine1', { constructor: { prototype: { x: 1 } } }),
      () => collection.update('fine1', { meta: { prototype: 1 } }),
      () => collection.update('fine1', JSON.parse('{ "list": [{ "__proto__": { "admin": true } }] }')),
      () => collection.insert(JSON.parse('{ "title": "x", "__proto__": { "admin": true } }')),
    ]) {
      expect((await refusal(write)).code).toBe('SYNC_FORBIDDEN_KEY');
    }
    expect(collection.state('fine1')).toBe('synced');
    expect(collection.list()).toHaveLength(5);
  });
});

describe('a delete after an insert whose answer was lost', () => {
  it('is sent (the insert may have landed), keeps the document away from pulls meanwhile, and deletes it on the server', async () => {
    const notes = await freshType();
    let bulk: 'answer' | 'lose answer' | 'unreachable' = 'answer';
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (!String(input).endsWith('/bulk') || bulk === 'answer') return globalThis.fetch(input, init);
      if (bulk === 'unreachable') throw new TypeError('fetch failed');
      bulk = 'answer';
      await (await globalThis.fetch(input, init)).text();
      throw new TypeError('fetch failed (answer lost)');
    };
    const alice = client({ collections: [notes], token: project.owner, fetch });
    const collection = alice.collection(notes);
    bulk = 'lose answer';
    const draft = await collection.insert({ title: 'draft to discard' });
    await expect(alice.push()).rejects.toThrow();
    expect((await project.platform.call('GET', `${dataPath(notes)}/${draft.id}`, { token: project.owner })).status).toBe(200);

    await collection.remove(draft.id);
    expect([collection.get(draft.id), collection.state(draft.id), collection.pendingCount()]).toEqual([undefined, 'localChanges', 1]);
    // A pull while the delete waits does not bring the document back.
    bulk = 'unreachable';
    await collection.pull();
    expect(collection.get(draft.id)).toBeUndefined();
    bulk = 'answer';
    await alice.sync();
    await collection.pull();
    expect([collection.get(draft.id), collection.state(draft.id), collection.pendingCount()]).toEqual([undefined, 'synced', 0]);
    expect((await project.platform.call('GET', `${dataPath(notes)}/${draft.id}`, { token: project.owner })).body.deletedAt).toEqual(expect.any(Number));
    // Its id is a deleted entity's: not reused.
    await expect(collection.insert({ id: draft.id, title: 'again' })).rejects.toThrow('was deleted');
    expect(await serverDocuments(notes)).toEqual([]);
  });

  it('is sent after a restart too: the client saved that the insert left before sending it', async () => {
    const notes = await freshType();
    const directory = await mkdtemp(join(tmpdir(), 'sync-sent-insert-'));
    try {
      const loseAnswer: typeof globalThis.fetch = async (input, init) => {
        if (!String(input).endsWith('/bulk')) return globalThis.fetch(input, init);
        await (await globalThis.fetch(input, init)).text();
        throw new TypeError('fetch failed (answer lost)');
      };
      const before = client({ collections: [notes], token: project.owner, fetch: loseAnswer, store: await FileStore.open(directory) });
      const draft = await before.collection(notes).insert({ title: 'landed, answer lost' });
      await expect(before.push()).rejects.toThrow();
      await before.close();
      expect((await project.platform.call('GET', `${dataPath(notes)}/${draft.id}`, { token: project.owner })).status).toBe(200);

      const after = client({ collections: [notes], token: project.owner, store: await FileStore.open(directory) });
      const collection = after.collection(notes);
      await after.open();
      await collection.remove(draft.id);
      expect([collection.get(draft.id), collection.state(draft.id), collection.pendingCount()]).toEqual([undefined, 'localChanges', 1]);
      await after.sync();
      expect([collection.get(draft.id), collection.state(draft.id), collection.pendingCount()]).toEqual([undefined, 'synced', 0]);
      expect(await serverDocuments(notes)).toEqual([]);
      await after.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('an insert that never reached the server: the delete answered 404 is done, and the record is dropped', async () => {
    const notes = await freshType();
    let unreachable = true;
    const fetch: typeof globalThis.fetch = (input, init) => (unreachable && String(input).endsWith('/bulk') ? Promise.reject(new TypeError('fetch failed')) : globalThis.fetch(input, init));
    const alice = client({ collections: [notes], token: project.owner, fetch });
    const collection = alice.collection(notes);
    const draft = await collection.insert({ title: 'never sent' });
    await expect(alice.push()).rejects.toThrow();
    await collection.remove(draft.id);
    expect(collection.pendingCount()).toBe(1);
    unreachable = false;
    await alice.sync();
    expect([collection.get(draft.id), collection.state(draft.id), collection.pendingCount()]).toEqual([undefined, undefined, 0]);
    expect(await serverDocuments(notes)).toEqual([]);
  });
});

describe('resolveFields', () => {
  it('keeps mine for a field it names no choice for, even one named like an Object.prototype member', async () => {
    const notes = await freshType();
    const alice = client({ collections: [notes], token: project.owner });
    const collection = alice.collection(notes);
    const note = await collection.insert({ title: 'base', toString: 'base', valueOf: 'base' });
    await alice.sync();
    const theirs = await project.platform.call('PATCH', `${dataPath(notes)}/${note.id}`, { token: project.owner, body: { baseRevision: 0, modifier: { $set: { title: 'theirs', toString: 'theirs', valueOf: 'theirs' } } } });
    expect(theirs.status).toBe(200);
    await collection.update(note.id, { title: 'mine', toString: 'mine', valueOf: 'mine' });
    await alice.push();
    expect(collection.state(note.id)).toBe('conflict');
    await collection.resolveFields(note.id, { title: 'theirs' });
    expect(collection.get(note.id)).toMatchObject({ title: 'theirs', toString: 'mine', valueOf: 'mine' });
    await alice.sync();
    expect(comparable(await serverDocuments(notes))).toEqual([{ id: note.id, revision: 2, title: 'theirs', toString: 'mine', valueOf: 'mine' }]);
  });
});
