import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexedDBStore, SyncClient, TabCoordinator, type ChangeEvent, type TabLocks } from './index';
import { sdkTestProject } from './test-support/sdk-test-project';
import { heldFetch, sharedTabLocks } from './testing';

const project = sdkTestProject({ typePrefix: 'tabs' });
const { freshType } = project;
const clients: SyncClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function serverDocument(typeId: string, id: string): Promise<{ status: number; body: { deletedAt?: number } }> {
  return project.platform.call('GET', `/api/projects/${project.projectId}/types/${typeId}/data/${id}`, { token: project.owner });
}

async function serverTitles(typeId: string): Promise<string[]> {
  const response = await project.platform.call('GET', `/api/projects/${project.projectId}/types/${typeId}/data?updatedAt=0`, { token: project.owner });
  return response.body.items.map((item: { title: string }) => item.title).sort();
}

interface Tab {
  client: SyncClient;
  requests: string[];
  changes: ChangeEvent[];
}

/** One browser tab: its own store on the browser's one database, and the browser's locks. */
async function openTab(typeId: string, indexedDB: IDBFactory, locks: TabLocks, database: string, send: typeof fetch = fetch): Promise<Tab> {
  const requests: string[] = [];
  const changes: ChangeEvent[] = [];
  const client = new SyncClient({
    baseUrl: project.platform.url,
    projectId: project.projectId,
    token: project.owner,
    collections: [typeId],
    realtime: false,
    pollIntervalMs: 200,
    heartbeatMs: 60_000,
    backoff: { initialMs: 20, maxMs: 100 },
    store: await IndexedDBStore.open(database, { indexedDB, IDBKeyRange }),
    tabs: new TabCoordinator(`platform-sync:${database}`, { locks }),
    fetch: (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return send(input, init);
    },
  });
  client.on('change', (change) => changes.push(change));
  clients.push(client);
  return { client, requests, changes };
}

async function twoTabs(leaderFetch?: typeof fetch): Promise<{ typeId: string; leader: Tab; follower: Tab; locks: TabLocks; indexedDB: IDBFactory }> {
  const typeId = await freshType();
  const indexedDB = new IDBFactory();
  const locks = sharedTabLocks();
  const leader = await openTab(typeId, indexedDB, locks, 'console', leaderFetch);
  const follower = await openTab(typeId, indexedDB, locks, 'console');
  await leader.client.start();
  await follower.client.start();
  return { typeId, leader, follower, locks, indexedDB };
}

describe('tabs sharing one IndexedDB store', () => {
  it('lets only the leading tab talk to the server, and the leader pushes what the follower wrote', async () => {
    const { typeId, leader, follower } = await twoTabs();
    const written = await follower.client.collection(typeId).insert({ title: 'written in the follower' });
    await expect.poll(() => serverTitles(typeId), { timeout: 5_000 }).toEqual(['written in the follower']);
    await expect.poll(() => follower.client.collection(typeId).state(written.id), { timeout: 5_000 }).toBe('synced');
    expect(leader.client.collection(typeId).get(written.id)).toMatchObject({ title: 'written in the follower', revision: 0 });
    expect(leader.requests.some((request) => request.startsWith('POST'))).toBe(true);
    expect(follower.requests).toEqual([]);
  });

  it('shows in the follower what the leader pulled, with a change event from the tab', async () => {
    const { typeId, leader, follower } = await twoTabs();
    const created = await project.platform.call('POST', `/api/projects/${project.projectId}/types/${typeId}/data`, { token: project.owner, body: { title: 'made elsewhere' } });
    expect(created.status).toBe(201);
    await leader.client.sync();
    await expect.poll(() => follower.client.collection(typeId).get(created.body.id), { timeout: 5_000 }).toMatchObject({ title: 'made elsewhere' });
    expect(follower.changes).toContainEqual(expect.objectContaining({ typeId, source: 'tab', reason: 'tab', added: [expect.objectContaining({ id: created.body.id })] }));
    expect(follower.requests).toEqual([]);
  });

  it('hands the lead to a waiting tab when the leader closes, which then pulls and pushes', async () => {
    const { typeId, leader, follower } = await twoTabs();
    await follower.client.collection(typeId).insert({ title: 'queued while following' });
    await expect.poll(() => serverTitles(typeId), { timeout: 5_000 }).toEqual(['queued while following']);
    expect(follower.requests).toEqual([]);
    await leader.client.close();
    const created = await project.platform.call('POST', `/api/projects/${project.projectId}/types/${typeId}/data`, { token: project.owner, body: { title: 'pulled by the new leader' } });
    expect(created.status).toBe(201);
    await follower.client.collection(typeId).insert({ title: 'pushed by the new leader' });
    await expect.poll(() => serverTitles(typeId), { timeout: 5_000 }).toEqual(['pulled by the new leader', 'pushed by the new leader', 'queued while following']);
    await expect.poll(() => follower.client.collection(typeId).get(created.body.id), { timeout: 5_000 }).toMatchObject({ title: 'pulled by the new leader' });
    expect(follower.requests.length).toBeGreaterThan(0);
  });

  it("deletes on the server a document the follower removes while the leader's insert of it is on the way, and neither tab brings it back", async () => {
    const push = heldFetch((url) => url.endsWith('/bulk'), { hold: 'answer', fetch });
    const { typeId, leader, follower } = await twoTabs(push.fetch);
    const written = await follower.client.collection(typeId).insert({ title: 'removed in flight' });
    await push.held;
    await follower.client.collection(typeId).remove(written.id);
    push.release();
    await expect.poll(async () => (await serverDocument(typeId, written.id)).body.deletedAt, { timeout: 5_000 }).toEqual(expect.any(Number));
    await leader.client.sync();
    for (const tab of [leader, follower]) {
      await expect.poll(() => tab.client.collection(typeId).get(written.id), { timeout: 5_000 }).toBeUndefined();
      expect(tab.client.collection(typeId).pendingCount()).toBe(0);
    }
  });

  it("pushes a delete for a document another tab removed from the store while its insert was on the way, that tab's word not yet arrived", async () => {
    const push = heldFetch((url) => url.endsWith('/bulk'), { hold: 'answer', fetch });
    const { typeId, leader, indexedDB } = await twoTabs(push.fetch);
    const written = await leader.client.collection(typeId).insert({ title: 'removed behind its back' });
    await push.held;
    // What a tab's delete leaves in the shared database, before its announcement reaches the leader.
    const otherTab = await IndexedDBStore.open('console', { indexedDB, IDBKeyRange });
    await otherTab.delete(`entities:${typeId}`, written.id);
    await otherTab.close();
    push.release();
    await expect.poll(async () => (await serverDocument(typeId, written.id)).body.deletedAt, { timeout: 5_000 }).toEqual(expect.any(Number));
    await expect.poll(() => leader.client.collection(typeId).pendingCount(), { timeout: 5_000 }).toBe(0);
    expect(leader.client.collection(typeId).get(written.id)).toBeUndefined();
    expect(leader.changes).toContainEqual(expect.objectContaining({ typeId, source: 'tab', removed: [expect.objectContaining({ id: written.id })] }));
  });
});
