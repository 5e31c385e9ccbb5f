import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SyncClient, type SyncClientOptions } from './index';
import { comparable, flakyNetwork, silentDropProxy } from './testing';

/** Issue 33: sync that stays out of the way (disjoint edits merge, isolation, stalls, bulk pushes). */
let platform: TestGateway;
let projectId: string;
const tokens: Record<'owner' | 'alice' | 'bob', string> = { owner: '', alice: '', bob: '' };
const clients: SyncClient[] = [];

function client(token: string, options: Partial<SyncClientOptions> & Pick<SyncClientOptions, 'collections'>): SyncClient {
  const created = new SyncClient({
    baseUrl: platform.url,
    projectId,
    token,
    backoff: { initialMs: 20, maxMs: 100 },
    pollIntervalMs: 60_000,
    heartbeatMs: 60_000,
    realtime: false,
    ...options,
  });
  clients.push(created);
  return created;
}

let typeCounter = 0;
async function freshType(extra: Record<string, unknown> = {}): Promise<string> {
  const id = `w${++typeCounter}${Date.now().toString(36)}`;
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { id, name: id, ...extra } })).status).toBe(201);
  return id;
}

async function serverDocuments(typeId: string): Promise<Array<Record<string, unknown>>> {
  const response = await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data?updatedAt=0&limit=5000`, { token: tokens.owner });
  expect(response.status).toBe(200);
  return response.body.items.filter((item: { deletedAt?: number }) => item.deletedAt === undefined);
}

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService], realtime: true });
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await platform.signIn(name);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice' }, { userId: 'bob' }] });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await platform?.close();
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
    await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: tokens.owner, body: { title: 'on the server' } });
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
    await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: tokens.owner, body: { title: 'remote' } });
    await expect.poll(() => bob.collection(typeId).list().map((document) => document.title).sort(), { timeout: 3_000 }).toEqual(['remote', 'stuck']);
    expect(bob.collection(typeId).state(queued.id)).toBe('localChanges');
    const pulled = await bob.collection(typeId).pull();
    expect(pulled.typeId).toBe(typeId);
  });
});

describe('stalls', () => {
  it('a silent drop is noticed (no keep-alive for twice its interval), and after it the pending edit and a remote change cross within 3 s', async () => {
    const typeId = await freshType();
    const shared = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: tokens.owner, body: { title: 'shared' } });
    const proxy = await silentDropProxy(platform.url);
    try {
      const bob = client(tokens.bob, { collections: [{ typeId, realtime: true }], baseUrl: proxy.url, realtime: true, requestTimeoutMs: 1_000, streamKeepAliveMs: 1_000, realtimeDebounceMs: 50 });
      await bob.start();
      await expect.poll(() => bob.realtimeStatus, { timeout: 3_000 }).toBe('live');

      proxy.drop();
      const droppedAt = Date.now();
      await bob.collection(typeId).update(shared.body.id, { note: 'written during the drop' });
      const remote = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: tokens.owner, body: { title: 'remote' } });
      await expect.poll(() => bob.realtimeStatus, { timeout: 3_500 }).not.toBe('live');
      expect(Date.now() - droppedAt).toBeLessThan(3_500);
      await new Promise((resolve) => setTimeout(resolve, 4_000 - (Date.now() - droppedAt)));
      expect(bob.realtimeStatus).not.toBe('live');

      proxy.restore();
      const restoredAt = Date.now();
      await expect.poll(() => bob.collection(typeId).get(remote.body.id)?.title, { timeout: 3_000 }).toBe('remote');
      await expect.poll(async () => comparable(await serverDocuments(typeId)).find((document) => document.id === shared.body.id), { timeout: 3_000 - (Date.now() - restoredAt) }).toMatchObject({ note: 'written during the drop' });
      expect(Date.now() - restoredAt).toBeLessThan(3_000);
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await proxy.close();
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
    const { network, fetch } = flakyNetwork(platform.url);
    const bob = client(tokens.bob, { collections: [typeId], fetch });
    const notes = bob.collection(typeId);
    for (let n = 0; n < 1_199; n += 1) await notes.insert({ n });
    const refused = await notes.insert({ n: -1 });
    await bob.sync();
    const bulkRequests = network.requests.filter((request) => request.startsWith(`POST /api/projects/${projectId}/types/${typeId}/data/bulk`));
    expect(bulkRequests).toHaveLength(3);
    expect(network.requests.filter((request) => request.startsWith('POST') && !request.includes('/bulk') && !request.includes('/readable'))).toEqual([]);
    expect(notes.conflicts()).toEqual([{ id: refused.id, conflict: expect.objectContaining({ reason: 'rejected', error: expect.objectContaining({ status: 400, code: 'DATA_SCHEMA_VIOLATION' }) }) }]);
    expect(notes.list().filter((document) => notes.state(document.id) === 'synced')).toHaveLength(1_199);
    expect(await serverDocuments(typeId)).toHaveLength(1_199);
  });
});
