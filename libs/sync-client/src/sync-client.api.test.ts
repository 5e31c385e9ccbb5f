import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileStore } from './file-store';
import { MemoryStore, SyncClient, type ChangeEvent, type CollectionOptions, type SyncClientOptions, type SyncState } from './index';
import { comparable, flakyNetwork as networkTo, heldFetch, quietClients, runRandomizedSession } from './testing';

let platform: TestGateway;
let projectId: string;
const tokens: Record<'owner' | 'alice' | 'bob', string> = { owner: '', alice: '', bob: '' };
const clients = quietClients(SyncClient, () => ({ baseUrl: platform.url, projectId }));
const flakyNetwork = () => networkTo(platform.url);

function client(token: string, collections: Array<string | CollectionOptions>, options: Partial<SyncClientOptions> = {}, base: TestGateway = platform): SyncClient {
  return clients.open({ baseUrl: base.url, token, collections, ...options });
}

async function createType(id: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { id, name: id, ...extra } });
  expect(response.status).toBe(201);
  return id;
}

let typeCounter = 0;
const freshType = (extra: Record<string, unknown> = {}) => createType(`t${++typeCounter}${Date.now().toString(36)}`, extra);

async function serverDocuments(typeId: string): Promise<Array<Record<string, unknown>>> {
  const response = await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data?updatedAt=0`, { token: tokens.owner });
  expect(response.status).toBe(200);
  return response.body.items.filter((item: { deletedAt?: number }) => item.deletedAt === undefined);
}

/** `count` documents `large-<n>` of about 800 kB at `path` (four parts of 200 kB), each at revision 3; answers their ids. */
async function largeDocuments(path: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = `large-${index}`;
    expect((await platform.call('POST', path, { token: tokens.owner, body: { id, title: 'first', part0: 'x'.repeat(200_000) } })).status).toBe(201);
    for (let revision = 0; revision < 3; revision += 1) {
      const grown = await platform.call('PATCH', `${path}/${id}`, { token: tokens.owner, body: { modifier: { $set: { [`part${revision + 1}`]: 'x'.repeat(200_000) } }, baseRevision: revision } });
      expect(grown.status).toBe(200);
    }
    ids.push(id);
  }
  return ids;
}

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService], realtime: true });
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await platform.signIn(name);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['secret'] }, { userId: 'bob' }] });
});

afterEach(async () => {
  await clients.closeAll();
});

afterAll(async () => {
  await platform?.close();
});

describe('offline queue', () => {
  it('keeps inserts, patches and deletes made offline, retries with backoff, and pushes them once online', async () => {
    const typeId = await freshType();
    const { network, fetch } = flakyNetwork();
    const alice = client(tokens.alice, [typeId], { fetch });
    await alice.start();
    const notes = alice.collection(typeId);
    const kept = await notes.insert({ title: 'kept' });
    await alice.sync();
    expect(notes.state(kept.id)).toBe('synced');

    network.online = false;
    const added = await notes.insert({ title: 'written offline', tags: ['a'] });
    await notes.update(kept.id, { title: 'edited offline', note: 'n' });
    const doomed = await notes.insert({ title: 'never reaches the server' });
    await notes.remove(doomed.id);
    expect([notes.state(added.id), notes.state(kept.id)]).toEqual(['localChanges', 'localChanges']);
    expect(notes.get(doomed.id)).toBeUndefined();
    await expect.poll(() => network.failures, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: kept.id, revision: 0, title: 'kept' }]);

    network.online = true;
    await expect.poll(() => [notes.state(added.id), notes.state(kept.id)], { timeout: 5_000 }).toEqual(['synced', 'synced']);
    const server = comparable(await serverDocuments(typeId));
    expect(server).toEqual(comparable([{ id: kept.id, revision: 1, title: 'edited offline', note: 'n' }, { id: added.id, revision: 0, title: 'written offline', tags: ['a'] }]));
    // Its insert never reached the server. (One attempted while offline failed without an answer:
    // it might have landed, so its delete is pushed, and answered 404.)
    expect(network.requests.filter((request) => request.includes(doomed.id) && !request.includes('"op":"delete"'))).toEqual([]);
    expect(notes.state(doomed.id)).toBeUndefined();
    expect(network.requests.filter((request) => request.includes('"op":"patch"')).length).toBe(1);
  });

  it('counts every pending write, queued deletes included (which list() no longer shows), and conflicts', async () => {
    const typeId = await freshType();
    const { network, fetch } = flakyNetwork();
    const alice = client(tokens.alice, [typeId], { fetch });
    const notes = alice.collection(typeId);
    const [removed, edited, kept] = [await notes.insert({ title: 'removed' }), await notes.insert({ title: 'edited' }), await notes.insert({ title: 'kept' })];
    await alice.sync();
    expect(notes.pendingCount()).toBe(0);
    network.online = false;
    await notes.remove(removed.id);
    await notes.update(edited.id, { title: 'edited offline' });
    await notes.insert({ title: 'inserted offline' });
    expect(notes.list()).toHaveLength(3);
    expect(notes.pendingCount()).toBe(3);
    network.online = true;
    await alice.sync();
    expect(notes.pendingCount()).toBe(0);
    // A conflict waits too.
    expect((await platform.call('PATCH', `/api/projects/${projectId}/types/${typeId}/data/${kept.id}`, { token: tokens.owner, body: { baseRevision: 0, modifier: { $set: { title: 'theirs' } } } })).status).toBe(200);
    await notes.update(kept.id, { title: 'mine' });
    await alice.push();
    expect([notes.state(kept.id), notes.pendingCount()]).toEqual(['conflict', 1]);
  });

  it('keeps the queue in a FileStore across a restart of the client', async () => {
    const typeId = await freshType();
    const directory = await mkdtemp(join(tmpdir(), 'sync-client-'));
    try {
      const { network, fetch } = flakyNetwork();
      network.online = false;
      const before = client(tokens.alice, [typeId], { fetch, store: await FileStore.open(directory) });
      const queued = await before.collection(typeId).insert({ title: 'queued before a restart' });
      await before.close();
      const after = client(tokens.alice, [typeId], { store: await FileStore.open(directory) });
      expect(after.collection(typeId).state(queued.id)).toBeUndefined();
      await after.open();
      expect(after.collection(typeId).state(queued.id)).toBe('localChanges');
      await after.sync();
      expect(after.collection(typeId).state(queued.id)).toBe('synced');
      expect(comparable(await serverDocuments(typeId))).toEqual([{ id: queued.id, revision: 0, title: 'queued before a restart' }]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('survives a lost answer: a POST that reached the server is not duplicated on retry', async () => {
    const typeId = await freshType();
    let dropNextAnswer = true;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (init?.method === 'POST' && dropNextAnswer) {
        dropNextAnswer = false;
        throw new TypeError('connection reset');
      }
      return response;
    };
    const alice = client(tokens.alice, [typeId], { fetch });
    await alice.start();
    const created = await alice.collection(typeId).insert({ title: 'once' });
    await expect.poll(() => alice.collection(typeId).state(created.id), { timeout: 5_000 }).toBe('synced');
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: created.id, revision: 0, title: 'once' }]);
  });
});

describe('conflicts', () => {
  /** Alice and Bob both hold one entity; both change it offline; Alice's change reaches the server first. */
  async function concurrentEdit(mine: Record<string, unknown>, theirs: Record<string, unknown>) {
    const typeId = await freshType();
    const alice = client(tokens.alice, [typeId]);
    const bob = client(tokens.bob, [typeId]);
    const original = await alice.collection(typeId).insert({ title: 'original', note: 'base', count: 1 });
    await alice.sync();
    await bob.sync();
    await alice.collection(typeId).update(original.id, theirs);
    await bob.collection(typeId).update(original.id, mine);
    await alice.sync();
    await bob.sync();
    return { typeId, id: original.id, alice, bob, notes: bob.collection(typeId) };
  }

  it('stores a 409 with the server details, per field', async () => {
    const { id, notes } = await concurrentEdit({ title: 'mine', note: 'my note' }, { title: 'theirs' });
    expect(notes.state(id)).toBe('conflict');
    const conflict = notes.conflict(id);
    expect(conflict).toMatchObject({ reason: 'revision', baseRevision: 0, currentRevision: 1, current: { id, revision: 1, title: 'theirs' } });
    expect(conflict?.fields).toEqual(
      expect.arrayContaining([
        { path: 'title', base: 'original', theirs: 'theirs', mine: 'mine', serverTouched: true },
        { path: 'note', base: 'base', theirs: 'base', mine: 'my note', serverTouched: false },
      ]),
    );
    expect(notes.get(id)).toMatchObject({ title: 'mine', note: 'my note' });
  });

  it("a patch whose answer was lost is not a conflict with itself: the server's version becomes the base, nothing is sent again (either merge policy)", async () => {
    for (const mergePolicy of ['automatic', 'manual'] as const) {
      const typeId = await freshType();
      const network = { dropNextPatchAnswer: false, patches: 0 };
      const fetch: typeof globalThis.fetch = async (input, init) => {
        const response = await globalThis.fetch(input, init);
        if (String(init?.body).includes('"op":"patch"')) {
          network.patches += 1;
          if (network.dropNextPatchAnswer) {
            network.dropNextPatchAnswer = false;
            await response.text();
            throw new TypeError('connection reset after the server applied the request');
          }
        }
        return response;
      };
      const alice = client(tokens.alice, [typeId], { fetch, mergePolicy });
      const conflicts: string[] = [];
      alice.on('conflict', ({ id }) => conflicts.push(id));
      const tasks = alice.collection(typeId);
      const task = await tasks.insert({ title: 'a', done: false });
      await alice.sync();
      network.dropNextPatchAnswer = true;
      await tasks.update(task.id, { done: true });
      await expect(alice.push()).rejects.toThrow(/network error/);
      await alice.push();
      expect([conflicts, tasks.state(task.id), network.patches]).toEqual([[], 'synced', 2]);
      expect(tasks.get(task.id)).toMatchObject({ done: true, revision: 1 });
      expect(comparable(await serverDocuments(typeId))).toEqual([{ id: task.id, revision: 1, title: 'a', done: true }]);
    }
  });

  it('a field both changed to the same value is no conflict: the other fields are merged and sent on the new revision', async () => {
    const { typeId, id, notes, bob } = await concurrentEdit({ title: 'same', note: 'my note' }, { title: 'same', count: 2 });
    expect(notes.conflicts()).toEqual([]);
    await bob.sync();
    expect(notes.state(id)).toBe('synced');
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id, revision: 2, title: 'same', note: 'my note', count: 2 }]);
  });

  it('Accept Theirs takes the server version and sends nothing', async () => {
    const { typeId, id, notes, bob } = await concurrentEdit({ title: 'mine' }, { title: 'theirs' });
    await notes.acceptTheirs(id);
    await bob.sync();
    expect(notes.state(id)).toBe('synced');
    expect(notes.get(id)).toMatchObject({ title: 'theirs', revision: 1 });
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id, revision: 1, title: 'theirs', note: 'base', count: 1 }]);
  });

  it('Keep Mine re-sends the local change on the new base revision', async () => {
    const { typeId, id, notes, bob, alice } = await concurrentEdit({ title: 'mine' }, { title: 'theirs', count: 2 });
    await notes.keepMine(id);
    await bob.sync();
    expect(notes.state(id)).toBe('synced');
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id, revision: 2, title: 'mine', note: 'base', count: 2 }]);
    await alice.sync();
    expect(alice.collection(typeId).get(id)).toMatchObject({ title: 'mine', count: 2, revision: 2 });
  });

  it('resolves field by field: theirs for one field, mine for another', async () => {
    const { typeId, id, notes, bob } = await concurrentEdit({ title: 'mine', note: 'my note' }, { title: 'theirs' });
    await notes.resolveFields(id, { title: 'theirs', note: 'mine' });
    await bob.sync();
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id, revision: 2, title: 'theirs', note: 'my note', count: 1 }]);
    expect(notes.get(id)).toMatchObject({ title: 'theirs', note: 'my note', revision: 2 });
  });

  it('a change to an entity deleted on the server: Accept Theirs removes it, Keep Mine keeps it as a new entity', async () => {
    const typeId = await freshType();
    const alice = client(tokens.alice, [typeId]);
    const bob = client(tokens.bob, [typeId]);
    const [first, second] = [await alice.collection(typeId).insert({ title: 'one' }), await alice.collection(typeId).insert({ title: 'two' })];
    await alice.sync();
    await bob.sync();
    await alice.collection(typeId).remove(first.id);
    await alice.collection(typeId).remove(second.id);
    await alice.sync();
    await bob.collection(typeId).update(first.id, { title: 'one, edited' });
    await bob.collection(typeId).update(second.id, { title: 'two, edited' });
    await bob.sync();
    expect(bob.collection(typeId).conflict(first.id)?.reason).toBe('deletedOnServer');
    await bob.collection(typeId).acceptTheirs(first.id);
    await bob.collection(typeId).keepMine(second.id);
    await bob.sync();
    expect(comparable(bob.collection(typeId).list())).toEqual(comparable(await serverDocuments(typeId)));
    expect((await serverDocuments(typeId)).map((d) => d.title)).toEqual(['two, edited']);
  });
  it('an insert under the id of an entity deleted on the server is a deletedOnServer conflict, not lost: Keep Mine inserts it under a new id, Accept Theirs drops it', async () => {
    const typeId = await freshType();
    const alice = client(tokens.alice, [typeId]);
    for (const id of ['settings', 'draft']) await alice.collection(typeId).insert({ id, title: `alice's ${id}` });
    await alice.sync();
    for (const id of ['settings', 'draft']) await alice.collection(typeId).remove(id);
    await alice.sync();
    await expect(alice.collection(typeId).insert({ id: 'settings', title: 'again' })).rejects.toThrow(/settings in .* was deleted; a deleted entity's id is not reused/);
    // Bob has not pulled since: his copy does not know the ids were deleted.
    const bob = client(tokens.bob, [typeId]);
    const conflicts: string[] = [];
    bob.on('conflict', ({ id }) => conflicts.push(id));
    for (const id of ['settings', 'draft']) await bob.collection(typeId).insert({ id, title: `bob's ${id}` });
    await bob.push();
    expect(conflicts.sort()).toEqual(['draft', 'settings']);
    expect(bob.collection(typeId).conflict('settings')).toMatchObject({ reason: 'deletedOnServer', current: { id: 'settings', deletedAt: expect.any(Number) }, error: { status: 409, code: 'DATA_DUPLICATE_ID' } });
    expect(bob.collection(typeId).get('settings')).toMatchObject({ title: "bob's settings" });
    const kept = await bob.collection(typeId).keepMine('settings');
    await bob.collection(typeId).acceptTheirs('draft');
    await bob.sync();
    expect(kept).not.toBe('settings');
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: kept, revision: 0, title: "bob's settings" }]);
    expect(comparable(bob.collection(typeId).list())).toEqual(comparable(await serverDocuments(typeId)));
    expect(bob.collection(typeId).conflicts()).toEqual([]);
  });

  it('deleting an entity in conflict settles the conflict: the delete reaches the server and every copy drops the entity', async () => {
    const { typeId, id, notes, bob, alice } = await concurrentEdit({ title: 'mine' }, { title: 'theirs' });
    expect(notes.conflicts().map((entry) => entry.id)).toEqual([id]);
    await notes.remove(id);
    expect(notes.get(id)).toBeUndefined();
    await bob.sync();
    expect([notes.state(id), notes.conflicts()]).toEqual(['synced', []]);
    await alice.sync();
    expect(await serverDocuments(typeId)).toEqual([]);
    expect(alice.collection(typeId).list()).toEqual([]);
  });

  /** An entity only Alice may delete, held by both Alice and Bob. */
  async function onlyAliceDeletes(title: string) {
    const typeId = await freshType();
    const alice = client(tokens.alice, [typeId]);
    const bob = client(tokens.bob, [typeId]);
    const guarded = await alice.collection(typeId).insert({ title, access: { delete: { userIds: ['alice'] } } });
    await alice.sync();
    await bob.sync();
    return { typeId, alice, bob, guarded };
  }

  it('a refused delete stays listed among the conflicts: Accept Theirs brings the entity back', async () => {
    const { typeId, bob, guarded } = await onlyAliceDeletes('only alice deletes');
    await bob.collection(typeId).remove(guarded.id);
    await bob.sync();
    expect(bob.collection(typeId).conflicts()).toEqual([{ id: guarded.id, conflict: expect.objectContaining({ reason: 'rejected', error: expect.objectContaining({ status: 403 }) }) }]);
    expect(bob.collection(typeId).get(guarded.id)).toBeUndefined();
    await bob.collection(typeId).acceptTheirs(guarded.id);
    expect(bob.collection(typeId).get(guarded.id)).toMatchObject({ title: 'only alice deletes', revision: 0 });
    expect(bob.collection(typeId).conflicts()).toEqual([]);
    expect(await serverDocuments(typeId)).toHaveLength(1);
  });

  it('a refused delete of an entity that was in conflict: Accept Theirs shows the server version the conflict carried', async () => {
    const { typeId, alice, bob, guarded } = await onlyAliceDeletes('original');
    await alice.collection(typeId).update(guarded.id, { title: 'theirs' });
    await alice.sync();
    await bob.collection(typeId).update(guarded.id, { title: 'mine' });
    await bob.sync();
    expect(bob.collection(typeId).state(guarded.id)).toBe('conflict');
    await bob.collection(typeId).remove(guarded.id);
    await bob.sync();
    expect(bob.collection(typeId).conflict(guarded.id)?.reason).toBe('rejected');
    await bob.collection(typeId).acceptTheirs(guarded.id);
    expect(bob.collection(typeId).get(guarded.id)).toMatchObject({ title: 'theirs', revision: 1 });
  });
});

describe('inserts under an id already taken', () => {
  /** A fetch that loses the answer of the next insert (the server applied it) and then fails every request until `network.online`. */
  function losingInsertAnswer() {
    const network = { online: true, loseNextInsert: true, failNextGetOf: undefined as string | undefined };
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (!network.online) throw new TypeError('fetch failed');
      const url = String(input);
      if (network.failNextGetOf !== undefined && (init?.method ?? 'GET') === 'GET' && url.endsWith(`/data/${network.failNextGetOf}`)) {
        network.failNextGetOf = undefined;
        return new Response(JSON.stringify({ error: 'busy', code: 'UNAVAILABLE' }), { status: 503, headers: { 'content-type': 'application/json' } });
      }
      const response = await globalThis.fetch(input, init);
      if (network.loseNextInsert && init?.method === 'POST' && String(init.body).includes('"op":"create"')) {
        network.loseNextInsert = false;
        network.online = false;
        await response.text();
        throw new TypeError('connection reset');
      }
      return response;
    };
    return { network, fetch };
  }

  it("never overwrites another user's entity: the insert is a revision conflict whose current is the stored entity", async () => {
    const typeId = await freshType();
    const alice = client(tokens.alice, [typeId]);
    const bob = client(tokens.bob, [typeId]);
    for (const id of ['day-2026-12-06', 'day-2026-12-07']) await alice.collection(typeId).insert({ id, note: 'Alice wrote this', mood: 'good' });
    await alice.sync();
    // Bob has not pulled: his copy does not know Alice's entities.
    const conflicts: string[] = [];
    bob.on('conflict', ({ id }) => conflicts.push(id));
    const days = bob.collection(typeId);
    for (const id of ['day-2026-12-06', 'day-2026-12-07']) await days.insert({ id, note: 'Bob wrote this' });
    await bob.push();
    expect(conflicts.sort()).toEqual(['day-2026-12-06', 'day-2026-12-07']);
    const alices = ['day-2026-12-06', 'day-2026-12-07'].map((id) => ({ id, revision: 0, note: 'Alice wrote this', mood: 'good' }));
    expect(comparable(await serverDocuments(typeId))).toEqual(alices);
    expect(days.conflict('day-2026-12-06')).toMatchObject({
      reason: 'revision',
      current: { id: 'day-2026-12-06', revision: 0, note: 'Alice wrote this', mood: 'good' },
      currentRevision: 0,
      fields: [{ path: 'note', theirs: 'Alice wrote this', mine: 'Bob wrote this', serverTouched: true }],
      error: { status: 409, code: 'DATA_DUPLICATE_ID' },
    });
    expect(days.get('day-2026-12-06')).toMatchObject({ note: 'Bob wrote this' });
    await bob.push();
    expect(comparable(await serverDocuments(typeId))).toEqual(alices);

    // The application decides: Accept Theirs shows Alice's entity; Keep Mine writes Bob's fields on it, on its revision.
    await days.acceptTheirs('day-2026-12-07');
    expect(days.get('day-2026-12-07')).toMatchObject({ note: 'Alice wrote this', mood: 'good', revision: 0 });
    expect(await days.keepMine('day-2026-12-06')).toBe('day-2026-12-06');
    await bob.sync();
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: 'day-2026-12-06', revision: 1, note: 'Bob wrote this', mood: 'good' }, alices[1]]);
    expect(comparable(days.list())).toEqual(comparable(await serverDocuments(typeId)));
  });

  it('an id held by an entity the caller may not read is a rejected conflict (never taken as its own); Keep Mine inserts it under a new id', async () => {
    const typeId = await freshType();
    const owner = client(tokens.owner, [typeId]);
    await owner.collection(typeId).insert({ id: 'private', title: 'the owner only', access: { read: { userIds: ['owner'] } } });
    await owner.sync();
    const bob = client(tokens.bob, [typeId]);
    const notes = bob.collection(typeId);
    await notes.insert({ id: 'private', title: "bob's" });
    await bob.push();
    expect(notes.conflict('private')).toMatchObject({ reason: 'rejected', error: { status: 409, code: 'DATA_DUPLICATE_ID' } });
    expect(notes.conflict('private')?.current).toBeUndefined();
    const kept = await notes.keepMine('private');
    expect(kept).not.toBe('private');
    await bob.sync();
    expect(notes.conflicts()).toEqual([]);
    expect(comparable(notes.list())).toEqual([{ id: kept, revision: 0, title: "bob's" }]);
    expect((await serverDocuments(typeId)).map((document) => [document.id, document.title]).sort()).toEqual([
      ['private', 'the owner only'],
      [kept, "bob's"],
    ].sort());
  });

  it("a retried insert whose answer was lost is its own by its creation: a later edit by another user is kept, and local edits made since are sent on top", async () => {
    const typeId = await freshType();
    const { network, fetch } = losingInsertAnswer();
    const alice = client(tokens.alice, [typeId], { fetch });
    const notes = alice.collection(typeId);
    const mine = await notes.insert({ title: 'first', note: 'alice', access: { read: { permission: 'secret' } } });
    await expect(alice.push()).rejects.toThrow(/network error/);
    // The insert reached the server, and the owner edits it there meanwhile.
    const edited = await platform.call('PATCH', `/api/projects/${projectId}/types/${typeId}/data/${mine.id}`, { token: tokens.owner, body: { modifier: { $set: { note: 'owner' } }, baseRevision: 0 } });
    expect(edited.status).toBe(200);
    await notes.update(mine.id, { title: 'first, edited' });
    network.online = true;
    await alice.awaitInSync();
    expect(notes.conflicts()).toEqual([]);
    expect(notes.state(mine.id)).toBe('synced');
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: mine.id, revision: 2, title: 'first, edited', note: 'owner' }]);
    expect(comparable(notes.list())).toEqual(comparable(await serverDocuments(typeId)));
  });

  it('a busy answer while reading the stored entity keeps the insert queued and retries it', async () => {
    const typeId = await freshType();
    const { network, fetch } = losingInsertAnswer();
    const alice = client(tokens.alice, [typeId], { fetch });
    const notes = alice.collection(typeId);
    const mine = await notes.insert({ title: 'once' });
    await expect(alice.push()).rejects.toThrow(/network error/);
    network.online = true;
    network.failNextGetOf = mine.id;
    await expect(alice.push()).rejects.toThrow(/HTTP 503/);
    expect([notes.state(mine.id), notes.conflicts()]).toEqual(['localChanges', []]);
    await alice.push();
    expect([notes.state(mine.id), notes.conflicts()]).toEqual(['synced', []]);
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: mine.id, revision: 0, title: 'once' }]);
  });
});

describe('push batches and the body limit', () => {
  it('sizes batches in UTF-8 bytes: 80 notes of Japanese text all reach the server, in requests under its 1 MiB limit', async () => {
    const typeId = await freshType();
    const { network, fetch } = flakyNetwork();
    const alice = client(tokens.alice, [typeId], { fetch });
    const notes = alice.collection(typeId);
    const text = '日本語のメモ'.repeat(1000); // 6,000 characters, 18,000 bytes
    for (let index = 0; index < 80; index += 1) await notes.insert({ text });
    await alice.push();
    expect(notes.conflicts()).toEqual([]);
    expect(await serverDocuments(typeId)).toHaveLength(80);
    expect(network.requests.filter((request) => request.startsWith('POST') && request.includes('/bulk')).length).toBe(3);
  });

  it('a 413 for a batch of several writes splits it and pushes the halves; only a write refused alone is a rejected conflict', async () => {
    const typeId = await freshType();
    // A proxy in front of the server that takes at most 100 kB per request.
    const bulkSizes: number[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const bytes = typeof init?.body === 'string' ? new TextEncoder().encode(init.body).length : 0;
      if (String(input).endsWith('/bulk')) bulkSizes.push((JSON.parse(init?.body as string) as { operations: unknown[] }).operations.length);
      if (bytes > 100_000) return new Response(JSON.stringify({ error: 'The body is larger than the 100000 bytes this route takes', code: 'BODY_TOO_LARGE' }), { status: 413, headers: { 'content-type': 'application/json' } });
      return globalThis.fetch(input, init);
    };
    const alice = client(tokens.alice, [typeId], { fetch });
    const notes = alice.collection(typeId);
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      ids.push((await notes.insert({ text: 'x'.repeat(30_000) })).id);
      if (index === 5) ids.push((await notes.insert({ text: 'too large on its own'.repeat(8_000) })).id);
    }
    const tooLarge = ids[6] as string;
    await alice.push();
    expect(notes.conflicts()).toEqual([{ id: tooLarge, conflict: expect.objectContaining({ reason: 'rejected', error: expect.objectContaining({ status: 413, code: 'BODY_TOO_LARGE' }) }) }]);
    expect((await serverDocuments(typeId)).map((document) => document.id).sort()).toEqual(ids.filter((id) => id !== tooLarge).sort());
    for (const id of ids) if (id !== tooLarge) expect(notes.state(id)).toBe('synced');
    expect(bulkSizes[0]).toBe(13);
  });

  it('conflicts a bulk answer carried without details (its budget spent on large documents) are sent again alone and stored whole', async () => {
    const typeId = await freshType();
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    // Twelve documents of about 800 kB: a bulk answer carries about 8 MiB of conflict details.
    const ids = await largeDocuments(path, 12);
    const bulkSizes: number[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (String(input).endsWith('/bulk')) bulkSizes.push((JSON.parse(init?.body as string) as { operations: unknown[] }).operations.length);
      return globalThis.fetch(input, init);
    };
    const alice = client(tokens.alice, [typeId], { fetch });
    await alice.sync();
    const notes = alice.collection(typeId);
    for (const id of ids) {
      expect((await platform.call('PATCH', `${path}/${id}`, { token: tokens.owner, body: { modifier: { $set: { title: 'theirs' } }, baseRevision: 3 } })).status).toBe(200);
      await notes.update(id, { title: 'mine' });
    }
    await alice.push();
    expect(bulkSizes[0]).toBe(12);
    expect(bulkSizes.length).toBeGreaterThan(1);
    expect(bulkSizes.slice(1).every((size) => size === 1)).toBe(true);
    const conflicts = notes.conflicts();
    expect(conflicts.map(({ id }) => id).sort()).toEqual([...ids].sort());
    for (const { conflict } of conflicts) {
      expect(conflict).toMatchObject({ reason: 'revision', baseRevision: 3, currentRevision: 4, current: expect.objectContaining({ title: 'theirs' }) });
      expect(conflict.fields).toEqual([expect.objectContaining({ path: 'title', theirs: 'theirs', mine: 'mine' })]);
    }
  });
});

describe('push answers without documents', () => {
  it('reads back the version of a write a bulk answer carried without its document (its budget spent on large documents), even when others wrote since', async () => {
    const typeId = await freshType();
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    // Fourteen documents of about 800 kB: a bulk answer carries about 8 MiB of documents, the last few without theirs.
    const ids = await largeDocuments(path, 14);
    const requests: string[] = [];
    let writtenMeanwhile: string | undefined;
    let readingBack = 0;
    let mostReadBacksAtOnce = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      requests.push(`${method} ${url.slice(url.indexOf('/data'))}`);
      const readBack = method === 'GET' ? /\/data\/([^/?]+)(?:\/revisions\/\d+)?$/.exec(url) : null;
      if (!readBack) return globalThis.fetch(input, init);
      // Another member writes the first document read back between the push's answer and its read.
      if (writtenMeanwhile === undefined) {
        writtenMeanwhile = decodeURIComponent(readBack[1] as string);
        expect((await platform.call('PATCH', `${path}/${writtenMeanwhile}`, { token: tokens.owner, body: { modifier: { $set: { title: 'theirs' } }, baseRevision: 4 } })).status).toBe(200);
      }
      readingBack += 1;
      mostReadBacksAtOnce = Math.max(mostReadBacksAtOnce, readingBack);
      try {
        return await globalThis.fetch(input, init);
      } finally {
        readingBack -= 1;
      }
    };
    const alice = client(tokens.alice, [typeId], { fetch });
    await alice.sync();
    const notes = alice.collection(typeId);
    for (const id of ids) await notes.update(id, { title: 'mine' });
    await alice.push();

    expect(requests.filter((request) => request.startsWith('POST') && request.endsWith('/bulk'))).toHaveLength(1);
    expect(writtenMeanwhile).toBeDefined();
    // The entity still at its revision is read as it is; only the one written since needs its revision's state.
    expect(requests.filter((request) => request.includes('/revisions/'))).toEqual([`GET /data/${writtenMeanwhile}/revisions/4`]);
    expect(requests.filter((request) => /^GET \/data\/[^/?]+$/.test(request)).length).toBeGreaterThan(1);
    expect(mostReadBacksAtOnce).toBe(1);
    expect(notes.conflicts()).toEqual([]);
    for (const id of ids) {
      expect(notes.state(id)).toBe('synced');
      expect(notes.get(id)).toMatchObject({ title: 'mine', revision: 4, part3: 'x'.repeat(200_000) });
    }
    await alice.sync();
    expect(notes.get(writtenMeanwhile as string)).toMatchObject({ title: 'theirs', revision: 5 });

    // Deletes answered without their document need no read: a delete changes no field.
    requests.length = 0;
    for (const id of ids) await notes.remove(id);
    await alice.push();
    expect(requests.filter((request) => request.startsWith('POST') && request.endsWith('/bulk'))).toHaveLength(1);
    expect(requests.filter((request) => request.startsWith('GET'))).toEqual([]);
    expect(notes.conflicts()).toEqual([]);
    for (const id of ids) expect(notes.get(id)).toBeUndefined();
    const onServer = await platform.call('GET', `${path}/${ids[13]}`, { token: tokens.owner });
    expect(onServer.body).toMatchObject({ deletedAt: expect.any(Number) });
  });
});

describe('convergence', () => {
  it('two clients editing the same and different entities offline converge after resolving', async () => {
    const typeId = await freshType();
    const a = flakyNetwork();
    const b = flakyNetwork();
    const alice = client(tokens.alice, [typeId], { fetch: a.fetch });
    const bob = client(tokens.bob, [typeId], { fetch: b.fetch });
    const shared = await alice.collection(typeId).insert({ title: 'shared' });
    const onlyAlice = await alice.collection(typeId).insert({ title: 'alice' });
    await alice.sync();
    await bob.sync();
    a.network.online = false;
    b.network.online = false;
    await alice.collection(typeId).update(shared.id, { title: 'alice was here' });
    await bob.collection(typeId).update(shared.id, { title: 'bob was here' });
    await alice.collection(typeId).update(onlyAlice.id, { done: true });
    await bob.collection(typeId).insert({ title: 'bob new' });
    await bob.collection(typeId).remove(onlyAlice.id);
    await expect(alice.sync()).rejects.toThrow('network');
    a.network.online = true;
    b.network.online = true;
    await alice.sync();
    await bob.sync();
    expect(bob.collection(typeId).state(shared.id)).toBe('conflict');
    await bob.collection(typeId).keepMine(shared.id);
    await bob.sync();
    await alice.sync();
    const server = comparable(await serverDocuments(typeId));
    expect(comparable(alice.collection(typeId).list())).toEqual(server);
    expect(comparable(bob.collection(typeId).list())).toEqual(server);
    expect(server.map((d) => d.title).sort()).toEqual(['bob new', 'bob was here']);
  });

  it('randomized: 5 clients, 500 operations, random disconnects, end identical to the server', async () => {
    const typeId = await freshType();
    const peers = Array.from({ length: 5 }, (_, index) => {
      const { network, fetch } = flakyNetwork();
      return { network, sync: client(index % 2 ? tokens.bob : tokens.alice, [typeId], { fetch }) };
    });
    const { conflicts } = await runRandomizedSession(peers, typeId, { operations: 500, seed: 42 });
    const server = comparable(await serverDocuments(typeId));
    expect(server.length).toBeGreaterThan(10);
    expect(conflicts).toBeGreaterThan(5);
    expect(peers.every((peer) => peer.network.failures > 0)).toBe(true);
    for (const peer of peers) {
      expect(peer.sync.collection(typeId).conflicts()).toEqual([]);
      expect(peer.sync.collection(typeId).list().filter((d) => peer.sync.collection(typeId).state(d.id) !== 'synced')).toEqual([]);
      expect(comparable(peer.sync.collection(typeId).list())).toEqual(server);
    }
  }, 60_000);
});

describe('localOnly types', () => {
  it('never sends localOnly entities; switching back to remote drops what was collected meanwhile', async () => {
    const typeId = await freshType({ syncType: 'localOnly' });
    const { network, fetch } = flakyNetwork();
    const alice = client(tokens.alice, [typeId], { fetch });
    await alice.start();
    const notes = alice.collection(typeId);
    const draft = await notes.insert({ title: 'local draft' });
    await notes.update(draft.id, { title: 'still local' });
    await alice.sync();
    expect(notes.state(draft.id)).toBe('localChanges');
    expect(notes.get(draft.id)).toMatchObject({ title: 'still local' });
    expect(network.requests.filter((request) => request.includes(`/types/${typeId}/data`))).toEqual([]);

    const type = (await platform.call('GET', `/api/projects/${projectId}/types/${typeId}`, { token: tokens.owner })).body;
    const switched = await platform.call('PATCH', `/api/projects/${projectId}/types/${typeId}`, { token: tokens.owner, body: { modifier: { $set: { syncType: 'remote' } }, baseRevision: type.revision } });
    expect(switched.status).toBe(200);
    // Views hear of the dropped draft: a `change` and the entity's state.
    const changes: ChangeEvent[] = [];
    const states: Array<{ id: string; state: SyncState }> = [];
    alice.on('change', (change) => changes.push(change));
    alice.on('state', ({ id, state }) => states.push({ id, state }));
    await alice.refreshSyncTypes();
    expect(notes.get(draft.id)).toBeUndefined();
    expect(changes).toEqual([{ typeId, added: [], modified: [], removed: [expect.objectContaining({ id: draft.id, title: 'still local' })], reason: 'syncType', source: 'local' }]);
    expect(states).toEqual([{ id: draft.id, state: 'synced' }]);
    expect(notes.pendingCount()).toBe(0);
    await alice.sync();
    expect(await serverDocuments(typeId)).toEqual([]);

    const real = await notes.insert({ title: 'remote now' });
    await alice.sync();
    expect(notes.state(real.id)).toBe('synced');
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: real.id, revision: 0, title: 'remote now' }]);
  });

  it('learns from the server refusing a write that a type became localOnly, and keeps the entity local', async () => {
    const typeId = await freshType({ syncType: 'localOnly' });
    const alice = client(tokens.alice, [{ typeId, syncType: 'remote' }]);
    const draft = await alice.collection(typeId).insert({ title: 'draft' });
    await alice.push();
    expect(alice.collection(typeId).state(draft.id)).toBe('localChanges');
    expect(alice.collection(typeId).get(draft.id)).toMatchObject({ title: 'draft' });
    await alice.push();
    expect(await serverDocuments(typeId)).toEqual([]);
  });
});

describe('pull', () => {
  it('stores each page while it fetches the next, and saves the cursor only once every page is stored', async () => {
    const typeId = await freshType();
    for (let seed = 0; seed < 3; seed += 1) {
      expect((await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/sample-data`, { token: tokens.owner, body: { count: 100, seed } })).status).toBe(201);
    }
    // What the client asked of the server and of its store, in order.
    const steps: string[] = [];
    const store = new MemoryStore();
    const put = store.put.bind(store);
    store.put = (storeName, key, value) => {
      steps.push(storeName === 'meta' ? `put ${key}` : 'put record');
      return put(storeName, key, value);
    };
    const fetchLogged: typeof fetch = (input, init) => {
      if (String(input).includes(`/types/${typeId}/data?`)) steps.push('get page');
      return fetch(input, init);
    };
    const reader = client(tokens.owner, [typeId], { store, fetch: fetchLogged, pageSize: 100 });
    const pulled = await reader.pull(typeId);
    expect(pulled.added).toHaveLength(300);

    const pages = steps.flatMap((step, index) => (step === 'get page' ? [index] : []));
    expect(pages).toHaveLength(3);
    // The first page's 100 records are stored before the second page is asked for...
    expect(steps.slice(pages[0]! + 1, pages[1]).filter((step) => step === 'put record')).toHaveLength(100);
    expect(steps.slice(pages[1]! + 1, pages[2]).filter((step) => step === 'put record')).toHaveLength(100);
    // ...and the cursor comes after the last page's records, then the standing it was reached under
    // (a stop between the two leaves an older standing: the next pull starts over, nothing is missed).
    expect(steps.filter((step) => step === 'put record')).toHaveLength(300);
    expect(steps.slice(-2)).toEqual([`put cursor:${typeId}`, `put standing:${typeId}`]);
    expect(await store.get('meta', `cursor:${typeId}`)).toBe(Math.max(...pulled.added.map((document) => document.updatedAt)));
  });

  it('called while a pull runs, answers a pull that starts after that one: a change written meanwhile is not missed', async () => {
    const typeId = await freshType();
    const isPage = (url: string) => url.includes(`/types/${typeId}/data?`);
    let pages = 0;
    const counted: typeof fetch = (input, init) => ((pages += isPage(String(input)) ? 1 : 0), fetch(input, init));
    const page = heldFetch(isPage, { hold: 'answer', fetch: counted });
    const reader = client(tokens.owner, [typeId], { fetch: page.fetch });
    const first = reader.pull(typeId);
    await page.held;
    // Written after the running pull read its page: a notification of it would ask for a pull now.
    const written = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: tokens.owner, body: { title: 'written meanwhile' } });
    expect(written.status).toBe(201);
    const second = reader.pull(typeId);
    const third = reader.pull(typeId);
    page.release();
    expect((await first).added).toEqual([]);
    expect((await second).added).toEqual([expect.objectContaining({ id: written.body.id, title: 'written meanwhile' })]);
    // Both calls made meanwhile share that one pull.
    expect(await third).toEqual(await second);
    expect(pages).toBe(2);
    expect(reader.collection(typeId).get(written.body.id)).toMatchObject({ title: 'written meanwhile' });
  });
});
