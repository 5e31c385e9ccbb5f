import { randomBytes } from 'node:crypto';
import { SyncClient, type CollectionOptions, type SyncClientOptions } from '@platform/sync-client';
import { comparable, flakyNetwork, quietClients, runRandomizedSession } from '@platform/sync-client/testing';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { httpCaller } from '../testing/platform-http';
import { startLocalTopology, type LocalTopology } from './local-topology';

/**
 * The sync client against the microservice shape: gateway and every service in their own
 * processes on MongoDB, NATS and Redis, so pulls, pushes, conflicts and realtime notifications
 * cross process boundaries the way they do in production.
 */
describeWithBackends(['mongo', 'nats', 'redis'], 'sync client against the microservice shape', (urls) => {
  let topology: LocalTopology;
  let projectId: string;
  const tokens: Record<'owner' | 'alice' | 'bob', string> = { owner: '', alice: '', bob: '' };
  const clients = quietClients(SyncClient, () => ({ baseUrl: topology.gatewayUrl, projectId }));

  const call = httpCaller(() => topology.gatewayUrl);

  function client(token: string, collections: Array<string | CollectionOptions>, options: Partial<SyncClientOptions> = {}): SyncClient {
    return clients.open({ token, collections, ...options });
  }

  /**
   * On MongoDB a write becomes pullable once it is older than the data service's settle margin
   * (1 s, see docs/sync.md), so no pull can step past a write another replica commits late.
   */
  const PULLABLE_AFTER_MS = 1_100;
  const pullable = () => new Promise((resolve) => setTimeout(resolve, PULLABLE_AFTER_MS));

  let typeCounter = 0;
  async function freshType(): Promise<string> {
    const id = `t${++typeCounter}${Date.now().toString(36)}`;
    expect((await call('POST', `/api/projects/${projectId}/types`, tokens.owner, { id, name: id })).status).toBe(201);
    return id;
  }

  async function serverDocuments(typeId: string): Promise<Array<Record<string, unknown>>> {
    const response = await call('GET', `/api/projects/${projectId}/types/${typeId}/data?updatedAt=0`, tokens.owner);
    expect(response.status).toBe(200);
    const items: Array<Record<string, unknown>> = response.body.items;
    return items.filter((item) => item.deletedAt === undefined);
  }

  beforeAll(async () => {
    topology = await startLocalTopology({ backendUrls: urls, extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `sync_${randomBytes(4).toString('hex')}` } });
    const ids: Record<string, string> = {};
    for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) {
      const registered = await call('POST', '/api/auth/register', undefined, { email: `${name}-${randomBytes(3).toString('hex')}@example.org`, password: `${name} password 1` });
      expect(registered.status).toBe(201);
      tokens[name] = registered.body.token;
      ids[name] = registered.body.user.id;
    }
    const project = await call('POST', '/api/projects', tokens.owner, { name: 'Sync across services' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    for (const member of ['alice', 'bob'] as const) {
      const invitation = await call('POST', `/api/projects/${projectId}/members`, tokens.owner, { userId: ids[member], permissions: [] });
      expect(invitation.status).toBe(202);
      expect((await call('POST', `/api/me/invitations/${invitation.body.id}/accept`, tokens[member])).status).toBe(200);
    }
  }, 180_000);

  afterEach(async () => {
    await clients.closeAll();
  });

  afterAll(async () => {
    await topology?.stop();
  });

  it('two clients editing the same and different entities offline converge after resolving both ways', async () => {
    const typeId = await freshType();
    const a = flakyNetwork(topology.gatewayUrl);
    const b = flakyNetwork(topology.gatewayUrl);
    const alice = client(tokens.alice, [typeId], { fetch: a.fetch });
    const bob = client(tokens.bob, [typeId], { fetch: b.fetch });
    const kept = await alice.collection(typeId).insert({ title: 'shared, kept' });
    const taken = await alice.collection(typeId).insert({ title: 'shared, taken' });
    const onlyAlice = await alice.collection(typeId).insert({ title: 'alice' });
    await alice.sync();
    await pullable();
    await bob.sync();
    a.network.online = false;
    b.network.online = false;
    await alice.collection(typeId).update(kept.id, { title: 'alice was here' });
    await bob.collection(typeId).update(kept.id, { title: 'bob was here' });
    await alice.collection(typeId).update(taken.id, { title: 'alice took it' });
    await bob.collection(typeId).update(taken.id, { title: 'bob lost it' });
    await alice.collection(typeId).update(onlyAlice.id, { done: true });
    await bob.collection(typeId).insert({ title: 'bob new' });
    await expect(alice.sync()).rejects.toThrow('network');
    a.network.online = true;
    b.network.online = true;
    await alice.sync();
    await pullable();
    await bob.sync();
    expect([bob.collection(typeId).state(kept.id), bob.collection(typeId).state(taken.id)]).toEqual(['conflict', 'conflict']);
    await bob.collection(typeId).keepMine(kept.id);
    await bob.collection(typeId).acceptTheirs(taken.id);
    await bob.sync();
    await pullable();
    await alice.sync();
    const server = comparable(await serverDocuments(typeId));
    expect(comparable(alice.collection(typeId).list())).toEqual(server);
    expect(comparable(bob.collection(typeId).list())).toEqual(server);
    expect(server.map((d) => d.title).sort()).toEqual(['alice', 'alice took it', 'bob new', 'bob was here']);
  }, 60_000);

  it('randomized: 5 clients, 500 operations, random disconnects, end identical to the server', async () => {
    const typeId = await freshType();
    const peers = Array.from({ length: 5 }, (_, index) => {
      const { network, fetch } = flakyNetwork(topology.gatewayUrl);
      return { network, sync: client(index % 2 ? tokens.bob : tokens.alice, [typeId], { fetch }) };
    });
    const { conflicts } = await runRandomizedSession(peers, typeId, { operations: 500, seed: 7, settleRoundPauseMs: PULLABLE_AFTER_MS });
    const server = comparable(await serverDocuments(typeId));
    expect(server.length).toBeGreaterThan(10);
    // The session must have made several conflicts for its convergence to mean anything. How many
    // depends on how the peers' syncs interleave with the services' answers, not only on the seed:
    // from 5 or fewer to 11 over twelve runs on 2026-12-04, at that day's code and the code before
    // it, so "more than 5" failed now and then.
    expect(conflicts).toBeGreaterThan(2);
    for (const peer of peers) {
      expect(peer.sync.collection(typeId).conflicts()).toEqual([]);
      expect(peer.sync.collection(typeId).list().filter((d) => peer.sync.collection(typeId).state(d.id) !== 'synced')).toEqual([]);
      expect(comparable(peer.sync.collection(typeId).list())).toEqual(server);
    }
  }, 240_000);

  it('realtime across processes: a remote change is pulled within 1.5 s, the client\'s own writes raise nothing', async () => {
    const [pulled, indicated] = [await freshType(), await freshType()];
    const alice = client(tokens.alice, [{ typeId: pulled, realtime: true }, indicated], { realtime: true });
    await alice.start();
    await expect.poll(() => alice.realtimeStatus, { timeout: 10_000 }).toBe('live');
    const arrived = new Map<string, number>();
    alice.on('change', (change) => {
      for (const document of [...change.added, ...change.modified]) arrived.set(document.id, Date.now());
    });
    const indicator: boolean[] = [];
    alice.on('changesAvailable', (event) => indicator.push(event.available));

    await alice.collection(indicated).insert({ title: 'mine' });
    await alice.sync();
    const writtenAt = Date.now();
    const remote = await call('POST', `/api/projects/${projectId}/types/${pulled}/data`, tokens.bob, { title: 'from bob' });
    expect(remote.status).toBe(201);
    await expect.poll(() => arrived.has(remote.body.id), { timeout: 5_000, interval: 20 }).toBe(true);
    expect((arrived.get(remote.body.id) as number) - writtenAt).toBeLessThan(1_500);
    expect(indicator).toEqual([]);

    const other = await call('POST', `/api/projects/${projectId}/types/${indicated}/data`, tokens.bob, { title: 'also from bob' });
    expect(other.status).toBe(201);
    await expect.poll(() => alice.collection(indicated).changesAvailable, { timeout: 5_000, interval: 20 }).toBe(true);
    expect(alice.collection(indicated).get(other.body.id)).toBeUndefined();
  }, 60_000);
});
