import { readlinkSync } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FileStore } from './file-store';
import { SyncClient, type SyncClientOptions } from './index';
import { sdkTestProject } from './test-support/sdk-test-project';
import { comparable, flakyNetwork, silentDropProxy } from './testing';

/** Issue 33: sync that stays out of the way (disjoint edits merge, isolation, stalls, bulk pushes). */
const project = sdkTestProject({ typePrefix: 'w', realtime: true, members: [{ userId: 'alice' }, { userId: 'bob' }] });
const { freshType } = project;
const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };
const client = (token: string, options: Partial<SyncClientOptions> & Pick<SyncClientOptions, 'collections'>) => project.client({ token, ...options });

async function serverDocuments(typeId: string): Promise<Array<Record<string, unknown>>> {
  const response = await project.platform.call('GET', `/api/projects/${project.projectId}/types/${typeId}/data?updatedAt=0&limit=5000`, { token: project.owner });
  expect(response.status).toBe(200);
  return response.body.items.filter((item: { deletedAt?: number }) => item.deletedAt === undefined);
}

beforeAll(async () => {
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await project.platform.signIn(name);
});

describe('disjoint edits', () => {
  /** Alice and Bob hold one document; Alice's change reaches the server, then Bob pushes his. */
  async function concurrentEdit(theirs: Record<string, unknown>, mine: Record<string, unknown>, bobOptions: Partial<SyncClientOptions> = {}) {
    const typeId = await freshType();
    const alice = client(tokens.alice, { collections: [typeId] });
    const bob = client(tokens.bob, { collections: [typeId], ...bobOptions });
    const original = await alice.collection(typeId).insert({ title: 'original', note: 'base' });
    await alice.sync();
    await bob.sync();
    await alice.collection(typeId).update(original.id, theirs);
    await bob.collection(typeId).update(original.id, mine);
    await alice.sync();
    const changes: unknown[] = [];
    bob.on('change', (change) => changes.push(change));
    await bob.sync();
    return { typeId, id: original.id, bob, notes: bob.collection(typeId), changes };
  }

  it('merges edits of different fields without a conflict: both reach the server and the copy', async () => {
    const { typeId, id, notes, changes } = await concurrentEdit({ title: 'by alice' }, { note: 'by bob' });
    expect(notes.state(id)).toBe('synced');
    expect(notes.conflicts()).toEqual([]);
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id, revision: 2, title: 'by alice', note: 'by bob' }]);
    expect(notes.get(id)).toMatchObject({ title: 'by alice', note: 'by bob', revision: 2 });
    expect(changes).toContainEqual(expect.objectContaining({ typeId, reason: 'merge', modified: [expect.objectContaining({ id, revision: 1, title: 'by alice' })] }));
  });

  it("mergePolicy 'manual' keeps today's behaviour: disjoint edits become a conflict", async () => {
    const { id, notes } = await concurrentEdit({ title: 'by alice' }, { note: 'by bob' }, { mergePolicy: 'manual' });
    expect(notes.state(id)).toBe('conflict');
    expect(notes.conflict(id)?.fields).toEqual([{ path: 'note', base: 'base', theirs: 'base', mine: 'by bob', serverTouched: false }]);
  });

  it('overlapping fields still become a conflict with the per-field view', async () => {
    const { typeId, id, notes } = await concurrentEdit({ title: 'by alice' }, { title: 'by bob', note: 'by bob' });
    expect(notes.state(id)).toBe('conflict');
    expect(notes.conflict(id)?.fields).toEqual(
      expect.arrayContaining([
        { path: 'title', base: 'original', theirs: 'by alice', mine: 'by bob', serverTouched: true },
        { path: 'note', base: 'base', theirs: 'base', mine: 'by bob', serverTouched: false },
      ]),
    );
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id, revision: 1, title: 'by alice', note: 'base' }]);
  });
});

describe('isolation', () => {
  it('each collection pulls and reports its errors on its own, in either order', async () => {
    const typeId = await freshType();
    await project.platform.call('POST', `/api/projects/${project.projectId}/types/${typeId}/data`, { token: project.owner, body: { title: 'on the server' } });
    for (const collections of [['missing-type', typeId], [typeId, 'missing-type']]) {
      const bob = client(tokens.bob, { collections });
      const errors: Array<{ typeId?: string; code?: string }> = [];
      bob.on('error', ({ error, typeId: failed }) => errors.push({ typeId: failed, code: (error as { code?: string }).code }));
      await bob.start();
      expect(bob.collection(typeId).list()).toMatchObject([{ title: 'on the server' }]);
      expect(errors).toEqual([{ typeId: 'missing-type', code: 'DATA_TYPE_NOT_FOUND' }]);
      await expect(bob.sync()).rejects.toMatchObject({ typeId: 'missing-type', code: 'DATA_TYPE_NOT_FOUND' });
      expect(errors).toHaveLength(2);
    }
  });

  it('a push that hangs does not hold back pulls: a remote change arrives while the local insert waits', async () => {
    const typeId = await freshType();
    // Writes reach a server that never answers (until the request is aborted); reads work.
    const fetch: typeof globalThis.fetch = (input, init) => {
      if (init?.method === 'POST' || init?.method === 'PATCH') return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
      return globalThis.fetch(input, init);
    };
    const bob = client(tokens.bob, { collections: [typeId], fetch, pollIntervalMs: 100, requestTimeoutMs: 1_000 });
    await bob.start();
    const queued = await bob.collection(typeId).insert({ title: 'stuck' });
    await project.platform.call('POST', `/api/projects/${project.projectId}/types/${typeId}/data`, { token: project.owner, body: { title: 'remote' } });
    await expect.poll(() => bob.collection(typeId).list().map((document) => document.title).sort(), { timeout: 3_000 }).toEqual(['remote', 'stuck']);
    expect(bob.collection(typeId).state(queued.id)).toBe('localChanges');
    const pulled = await bob.collection(typeId).pull();
    expect(pulled.typeId).toBe(typeId);
    // requestTimeoutMs bounds a push waiting on a server that never answers (30 s by default).
    const pushedAt = Date.now();
    await expect(bob.push()).rejects.toThrow('network error');
    expect(Date.now() - pushedAt).toBeLessThan(5_000);
  });
});

describe('stalls', () => {
  /** The finding: 40 s of silent drop; the gateway keeps its 15 s keep-alive and the clients their defaults (backoff, timeouts, polling). */
  const DROP_MS = 40_000;

  it("after a 40 s silent drop, noticed within twice the keep-alive interval, a client pushes its pending edit and gets a remote change within 3 s of the network's return by itself, and a sync() called then answers from the server", { timeout: DROP_MS + 30_000 }, async () => {
    const typeId = await freshType();
    const documents = `/api/projects/${project.projectId}/types/${typeId}/data`;
    const bobsNote = await project.platform.call('POST', documents, { token: project.owner, body: { title: 'for bob' } });
    const alicesNote = await project.platform.call('POST', documents, { token: project.owner, body: { title: 'for alice' } });
    // Bob is left to recover by himself; Alice's application calls sync() as the network returns.
    const proxies = [await silentDropProxy(project.platform.url), await silentDropProxy(project.platform.url)];
    try {
      const [bob, alice] = (['bob', 'alice'] as const).map((name, index) =>
        client(tokens[name], { collections: [{ typeId, realtime: true }], baseUrl: proxies[index]?.url, realtime: true, backoff: undefined, pollIntervalMs: undefined, heartbeatMs: undefined }),
      ) as [SyncClient, SyncClient];
      await Promise.all([bob.start(), alice.start()]);
      await expect.poll(() => [bob.realtimeStatus, alice.realtimeStatus], { timeout: 3_000 }).toEqual(['live', 'live']);
      const bobsStatuses: Array<{ status: string; afterDropMs: number }> = [];
      bob.on('realtime', ({ status }) => bobsStatuses.push({ status, afterDropMs: Date.now() - droppedAt }));

      for (const proxy of proxies) proxy.drop();
      const droppedAt = Date.now();
      await bob.collection(typeId).update(bobsNote.body.id, { note: 'bob wrote during the drop' });
      await alice.collection(typeId).update(alicesNote.body.id, { note: 'alice wrote during the drop' });
      const remote = await project.platform.call('POST', documents, { token: project.owner, body: { title: 'remote' } });
      await new Promise((resolve) => setTimeout(resolve, DROP_MS - (Date.now() - droppedAt)));
      // The last keep-alive came at most 15 s before the drop: 30 s of silence ended the stream by now.
      expect(bobsStatuses[0]).toEqual({ status: 'polling', afterDropMs: expect.any(Number) });
      expect(bobsStatuses[0]?.afterDropMs).toBeLessThan(31_000);
      expect(bobsStatuses.filter((entry) => entry.status === 'live')).toEqual([]);
      expect([bob.collection(typeId).get(remote.body.id), alice.collection(typeId).get(remote.body.id)]).toEqual([undefined, undefined]);

      for (const proxy of proxies) proxy.restore();
      const restoredAt = Date.now();
      await alice.sync();
      expect(Date.now() - restoredAt).toBeLessThan(3_000);
      expect(alice.collection(typeId).get(remote.body.id)?.title).toBe('remote');
      expect(alice.collection(typeId).state(alicesNote.body.id)).toBe('synced');

      await expect.poll(() => bob.collection(typeId).get(remote.body.id)?.title, { timeout: 3_000 - (Date.now() - restoredAt) }).toBe('remote');
      await expect.poll(() => bob.collection(typeId).state(bobsNote.body.id), { timeout: 3_000 - (Date.now() - restoredAt) }).toBe('synced');
      expect(Date.now() - restoredAt).toBeLessThan(3_000);
      const onServer = comparable(await serverDocuments(typeId));
      expect(onServer).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: bobsNote.body.id, note: 'bob wrote during the drop' }),
          expect.objectContaining({ id: alicesNote.body.id, note: 'alice wrote during the drop' }),
        ]),
      );
    } finally {
      await project.closeClients();
      await Promise.all(proxies.map((proxy) => proxy.close()));
    }
  });
});

describe('smaller items', () => {
  it('keepMine() of a document deleted on the server answers the new id it re-inserted under', async () => {
    const typeId = await freshType();
    const alice = client(tokens.alice, { collections: [typeId] });
    const bob = client(tokens.bob, { collections: [typeId] });
    const original = await alice.collection(typeId).insert({ title: 'one' });
    await alice.sync();
    await bob.sync();
    await alice.collection(typeId).remove(original.id);
    await alice.sync();
    await bob.collection(typeId).update(original.id, { title: 'one, edited' });
    await bob.sync();
    expect(bob.collection(typeId).conflict(original.id)?.reason).toBe('deletedOnServer');
    const newId = await bob.collection(typeId).keepMine(original.id);
    expect(newId).toEqual(expect.any(String));
    expect(newId).not.toBe(original.id);
    await bob.sync();
    expect(bob.collection(typeId).get(newId)).toMatchObject({ title: 'one, edited', revision: 0 });
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: newId, revision: 0, title: 'one, edited' }]);
  });

  it('update() of a document the server rejected pushes it again', async () => {
    const typeId = await freshType({ schema: { fields: { rating: { type: 'integer', minimum: 1, maximum: 5 } } } });
    const bob = client(tokens.bob, { collections: [typeId] });
    const rated = await bob.collection(typeId).insert({ rating: 9 });
    await bob.sync();
    expect(bob.collection(typeId).conflict(rated.id)).toMatchObject({ reason: 'rejected', error: { status: 400, code: 'DATA_SCHEMA_VIOLATION', field: 'rating' } });
    await bob.collection(typeId).update(rated.id, { rating: 4 });
    expect(bob.collection(typeId).state(rated.id)).toBe('localChanges');
    await bob.sync();
    expect(bob.collection(typeId).state(rated.id)).toBe('synced');
    expect(comparable(await serverDocuments(typeId))).toEqual([{ id: rated.id, revision: 0, rating: 4 }]);
  });

  it("local writes emit change with source 'local'", async () => {
    const typeId = await freshType();
    const bob = client(tokens.bob, { collections: [typeId] });
    const changes: unknown[] = [];
    bob.on('change', (change) => changes.push(change));
    const notes = bob.collection(typeId);
    const created = await notes.insert({ title: 'new' });
    await notes.update(created.id, { title: 'changed' });
    await notes.remove(created.id);
    const local = { typeId, reason: 'write', source: 'local' };
    expect(changes).toEqual([
      { ...local, added: [{ id: created.id, title: 'new' }], modified: [], removed: [] },
      { ...local, added: [], modified: [{ id: created.id, title: 'changed' }], removed: [] },
      { ...local, added: [], modified: [], removed: [{ id: created.id, title: 'changed' }] },
    ]);
  });
});

describe('bulk push', () => {
  it('pushes an offline queue in batches of the bulk route, each write with its own outcome', async () => {
    const typeId = await freshType({ schema: { fields: { n: { type: 'integer', minimum: 0 } } } });
    const { network, fetch } = flakyNetwork(project.platform.url);
    const bob = client(tokens.bob, { collections: [typeId], fetch });
    const notes = bob.collection(typeId);
    for (let n = 0; n < 1_199; n += 1) await notes.insert({ n });
    const refused = await notes.insert({ n: -1 });
    await bob.sync();
    const bulkRequests = network.requests.filter((request) => request.startsWith(`POST /api/projects/${project.projectId}/types/${typeId}/data/bulk`));
    expect(bulkRequests).toHaveLength(3);
    expect(network.requests.filter((request) => request.startsWith('POST') && !request.includes('/bulk') && !request.includes('/readable'))).toEqual([]);
    expect(notes.conflicts()).toEqual([{ id: refused.id, conflict: expect.objectContaining({ reason: 'rejected', error: expect.objectContaining({ status: 400, code: 'DATA_SCHEMA_VIOLATION' }) }) }]);
    expect(notes.list().filter((document) => notes.state(document.id) === 'synced')).toHaveLength(1_199);
    expect(await serverDocuments(typeId)).toHaveLength(1_199);
  });

  it('confirms each pushed batch of inserts in a FileStore with two synchronized writes (that they left, their answers), not one per document', async () => {
    const typeId = await freshType();
    const directory = await mkdtemp(join(tmpdir(), 'sync-push-file-store-'));
    // Every disk sync of a file in the store's directory (the platform in this process syncs its own files too).
    const probe = await open(join(directory, 'probe'), 'w');
    const handlePrototype = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    await rm(join(directory, 'probe'));
    const syncedPaths: string[] = [];
    const record = (handle: FileHandle) => {
      const path = readlinkSync(`/proc/self/fd/${handle.fd}`);
      if (path.startsWith(directory)) syncedPaths.push(path);
    };
    const { datasync, sync } = handlePrototype;
    const spies = [
      vi.spyOn(handlePrototype, 'datasync').mockImplementation(function (this: FileHandle) {
        record(this);
        return datasync.call(this);
      }),
      vi.spyOn(handlePrototype, 'sync').mockImplementation(function (this: FileHandle) {
        record(this);
        return sync.call(this);
      }),
    ];
    try {
      const { network, fetch } = flakyNetwork(project.platform.url);
      const bob = client(tokens.bob, { collections: [typeId], fetch, store: await FileStore.open(directory) });
      const notes = bob.collection(typeId);
      await Promise.all(Array.from({ length: 1_000 }, (_, n) => notes.insert({ n })));
      syncedPaths.length = 0;
      await bob.push();
      expect(network.requests.filter((request) => request.includes('/bulk'))).toHaveLength(2);
      expect(notes.list().filter((document) => notes.state(document.id) === 'synced')).toHaveLength(1_000);
      expect(syncedPaths).toEqual(Array.from({ length: 4 }, () => join(directory, 'journal.log')));
    } finally {
      for (const spy of spies) spy.mockRestore();
      await project.closeClients();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
