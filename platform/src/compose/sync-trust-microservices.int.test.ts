import { randomBytes } from 'node:crypto';
import { SyncClient, SyncError, type ChangeEvent } from '@platform/sync-client';
import { quietClients } from '@platform/sync-client/testing';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { httpCaller } from '../testing/platform-http';
import { startLocalTopology, type LocalTopology } from './local-topology';

/**
 * Issue 29 in the microservice shape, through identity's own routes (a logout, a member removed)
 * rather than a simulated notice: a session ended mid-queue, an entity's read access revoked, a
 * member removed from the project, and start() on a type that does not exist. Sessions live in
 * Redis, access notices cross NATS from identity to the gateway and the data service.
 */
describeWithBackends(['mongo', 'nats', 'redis'], 'sync client trust signals against the microservice shape', (urls) => {
  let topology: LocalTopology;
  let projectId: string;
  const users: Record<'owner' | 'bob', { token: string; userId: string; email: string; password: string }> = {
    owner: { token: '', userId: '', email: '', password: '' },
    bob: { token: '', userId: '', email: '', password: '' },
  };
  const clients = quietClients(SyncClient, () => ({ baseUrl: topology.gatewayUrl, projectId, token: users.bob.token, backoff: { initialMs: 20, maxMs: 200 } }));
  const client = clients.open;

  const call = httpCaller(() => topology.gatewayUrl);

  let typeCounter = 0;
  async function freshType(): Promise<string> {
    const id = `t${++typeCounter}${Date.now().toString(36)}`;
    expect((await call('POST', `/api/projects/${projectId}/types`, users.owner.token, { id, name: id })).status).toBe(201);
    return id;
  }

  const dataPath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/data`;

  async function ownerCreates(typeId: string, body: Record<string, unknown>): Promise<string> {
    const created = await call('POST', dataPath(typeId), users.owner.token, body);
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function signIn(user: (typeof users)[keyof typeof users]): Promise<string> {
    const session = await call('POST', '/api/auth/login', undefined, { email: user.email, password: user.password });
    expect(session.status).toBe(200);
    return session.body.token;
  }

  beforeAll(async () => {
    topology = await startLocalTopology({ backendUrls: urls, extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `sync_trust_${randomBytes(4).toString('hex')}` } });
    for (const name of Object.keys(users) as Array<keyof typeof users>) {
      const email = `${name}-${randomBytes(3).toString('hex')}@example.org`;
      const password = `${name} password 1`;
      const registered = await call('POST', '/api/auth/register', undefined, { email, password });
      expect(registered.status).toBe(201);
      users[name] = { token: registered.body.token, userId: registered.body.user.id, email, password };
    }
    const project = await call('POST', '/api/projects', users.owner.token, { name: 'Sync trust across services' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    const invitation = await call('POST', `/api/projects/${projectId}/members`, users.owner.token, { userId: users.bob.userId, permissions: [] });
    expect(invitation.status).toBe(202);
    expect((await call('POST', `/api/me/invitations/${invitation.body.id}/accept`, users.bob.token)).status).toBe(200);
  }, 180_000);

  /** The owner's view of the server's documents (on MongoDB a write is pullable about 1 s after it, docs/sync.md). */
  async function serverTitles(typeId: string): Promise<string[]> {
    const response = await call('GET', `${dataPath(typeId)}?updatedAt=0`, users.owner.token);
    expect(response.status).toBe(200);
    return response.body.items.map((item: { title: string }) => item.title).sort();
  }

  afterEach(async () => {
    await clients.closeAll();
  });

  afterAll(async () => {
    await topology?.stop();
  });

  it('a logout mid-queue pauses without conflicts, and a new session from getToken pushes the queue', async () => {
    const typeId = await freshType();
    let token = await signIn(users.bob);
    const bob = client({ collections: [typeId], getToken: () => token });
    const events: string[] = [];
    bob.on('unauthorized', () => events.push('unauthorized'));
    bob.on('authorized', () => events.push('authorized'));
    bob.on('conflict', ({ id }) => events.push(`conflict ${id}`));
    await bob.start();
    const notes = bob.collection(typeId);
    const kept = await notes.insert({ title: 'before the logout' });
    await expect.poll(() => notes.state(kept.id)).toBe('synced');

    expect((await call('POST', '/api/auth/logout', token)).status).toBe(204);
    const added = await notes.insert({ title: 'queued while signed out' });
    await notes.update(kept.id, { title: 'edited while signed out' });
    await expect.poll(() => events, { timeout: 5_000 }).toEqual(['unauthorized']);
    expect([notes.state(added.id), notes.state(kept.id), notes.conflicts()]).toEqual(['localChanges', 'localChanges', []]);

    token = await signIn(users.bob);
    await expect.poll(() => events, { timeout: 5_000 }).toEqual(['unauthorized', 'authorized']);
    expect([notes.state(added.id), notes.state(kept.id)]).toEqual(['synced', 'synced']);
    await expect.poll(() => serverTitles(typeId), { timeout: 5_000 }).toEqual(['edited while signed out', 'queued while signed out']);
  });

  it('an entity whose read access is revoked leaves the copy on the realtime notice, as a removed change of reason accessLost', async () => {
    const typeId = await freshType();
    const revoked = await ownerCreates(typeId, { title: 'revoked' });
    const kept = await ownerCreates(typeId, { title: 'kept' });
    const bob = client({ collections: [typeId], realtime: true, realtimeDebounceMs: 50 });
    const changes: ChangeEvent[] = [];
    bob.on('change', (change) => changes.push(change));
    await bob.start();
    await bob.awaitInSync();
    await expect.poll(() => bob.realtimeStatus, { timeout: 5_000 }).toBe('live');
    expect(bob.collection(typeId).list().map((document) => document.id).sort()).toEqual([revoked, kept].sort());

    const patched = await call('PATCH', `${dataPath(typeId)}/${revoked}`, users.owner.token, { baseRevision: 0, modifier: { $set: { access: { read: { userIds: [users.owner.userId] } } } } });
    expect(patched.status).toBe(200);
    await expect.poll(() => bob.collection(typeId).get(revoked), { timeout: 3_000 }).toBeUndefined();
    expect(bob.collection(typeId).list().map((document) => document.id)).toEqual([kept]);
    expect(changes.at(-1)).toMatchObject({ typeId, reason: 'accessLost', removed: [{ id: revoked }] });
  });

  it('start() rejects at once on a type that does not exist, with realtime', async () => {
    const bob = client({ collections: ['no-such-type'], realtime: true });
    const began = Date.now();
    const refused = await bob.start().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SyncError);
    expect((refused as SyncError).code).toBe('DATA_TYPE_NOT_FOUND');
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(bob.realtimeStatus).toBe('stopped');
  });

  it('a member removed from the project: projectLost at once, realtime stopped, sync() refused, the copy purged on request', async () => {
    const typeId = await freshType();
    await ownerCreates(typeId, { title: 'project data' });
    const bob = client({ collections: [typeId], realtime: true, purgeOnProjectLost: true });
    const lost: Array<{ projectId: string; purged: boolean }> = [];
    bob.on('projectLost', (event) => lost.push(event));
    await bob.start();
    await bob.awaitInSync();
    await expect.poll(() => bob.realtimeStatus, { timeout: 5_000 }).toBe('live');
    expect(bob.collection(typeId).list()).toHaveLength(1);

    expect((await call('DELETE', `/api/projects/${projectId}/members/${users.bob.userId}`, users.owner.token)).status).toBe(204);
    await expect.poll(() => lost, { timeout: 3_000 }).toEqual([{ projectId, purged: true }]);
    expect(bob.realtimeStatus).toBe('stopped');
    expect(bob.collection(typeId).list()).toEqual([]);
    const refused = await bob.sync().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SyncError);
    expect((refused as SyncError).code).toBe('PROJECT_NOT_FOUND');
  });
});
