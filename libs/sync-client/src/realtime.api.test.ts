import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { createParser } from 'eventsource-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SyncClient, type CollectionOptions, type SyncClientOptions, type SyncNotification } from './index';
import { heldFetch } from './testing';

/** Two realtime replicas sharing store, bus and sessions (as behind a load balancer), and one with realtime disabled. */
let first: TestGateway;
let second: TestGateway;
let disabled: TestGateway;
let projectId: string;
const tokens: Record<'owner' | 'alice' | 'bob' | 'outsider', string> = { owner: '', alice: '', bob: '', outsider: '' };
const clients: SyncClient[] = [];
const streams: Array<{ close(): void }> = [];

function client(base: TestGateway, token: string, collections: Array<string | CollectionOptions>, options: Partial<SyncClientOptions> = {}): SyncClient {
  const created = new SyncClient({ baseUrl: base.url, projectId, token, collections, backoff: { initialMs: 50, maxMs: 200 }, heartbeatMs: 60_000, ...options });
  clients.push(created);
  return created;
}

/** Subscribes to the channel with raw HTTP and collects the `sync` notifications. */
async function subscribe(base: TestGateway, token: string) {
  const issued = await base.call('GET', '/api/realtime/token', { token });
  expect(issued.status).toBe(200);
  const abort = new AbortController();
  const response = await fetch(`${base.url}${issued.body.streamPath.replace('{projectId}', projectId)}?token=${encodeURIComponent(issued.body.token)}`, { signal: abort.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const received: Array<{ event?: string; data: unknown }> = [];
  const parser = createParser({ onEvent: (event) => received.push({ event: event.event, data: JSON.parse(event.data) }) });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  })();
  await expect.poll(() => received.some((event) => event.event === 'ready'), { timeout: 5_000 }).toBe(true);
  const stream = {
    received,
    notifications: () => received.filter((event) => event.event === 'sync').map((event) => event.data as SyncNotification),
    close: () => abort.abort(),
  };
  streams.push(stream);
  return stream;
}

async function write(base: TestGateway, token: string, typeId: string, body: Record<string, unknown>): Promise<{ id: string; revision: number }> {
  const response = await base.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token, body });
  expect(response.status).toBe(201);
  return response.body;
}

let typeCounter = 0;
async function freshType(): Promise<string> {
  const id = `rt${++typeCounter}${Date.now().toString(36)}`;
  expect((await first.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { id, name: id } })).status).toBe(201);
  return id;
}

beforeAll(async () => {
  first = await startTestGateway({ services: [dataService], realtime: true });
  const shared = { store: first.context.store, bus: first.context.bus, kv: first.context.kv };
  second = await startTestGateway({ services: [dataService], realtime: true, ...shared });
  disabled = await startTestGateway({ services: [dataService], realtime: false, ...shared });
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await first.signIn(name);
  projectId = await first.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['secret'] }, { userId: 'bob' }] });
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await disabled?.close();
  await second?.close();
  await first?.close();
});

describe('realtime token and stream', () => {
  it.each([
    { case: 'no session', gateway: () => first, token: undefined, status: 401, code: 'UNAUTHENTICATED' },
    { case: 'realtime disabled by configuration', gateway: () => disabled, token: () => tokens.alice, status: 503, code: 'REALTIME_DISABLED' },
  ])('token: $case answers $status', async ({ gateway, token, status, code }) => {
    const response = await gateway().call('GET', '/api/realtime/token', { token: token?.() });
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
  });

  it.each([
    { case: 'a forged token', query: () => '?token=bm90LWEtdG9rZW4.c2lnbmF0dXJl', project: () => projectId, status: 401, code: 'REALTIME_TOKEN_INVALID' },
    { case: 'no token and no session', query: () => '', project: () => projectId, status: 401, code: 'REALTIME_TOKEN_INVALID' },
    { case: 'a project the caller is not a member of', query: () => `?token=${outsiderToken}`, project: () => projectId, status: 404, code: 'PROJECT_NOT_FOUND' },
  ])('stream: $case answers $status', async ({ query, project, status, code }) => {
    outsiderToken = encodeURIComponent((await first.call('GET', '/api/realtime/token', { token: tokens.outsider })).body.token);
    const response = await first.call('GET', `/api/realtime/projects/${project()}/sync${query()}`);
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
  });

  it('a session token is not accepted in place of a realtime token, nor a realtime token as a session', async () => {
    const realtimeToken = (await first.call('GET', '/api/realtime/token', { token: tokens.alice })).body.token as string;
    expect((await first.call('GET', `/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(tokens.alice)}`)).status).toBe(401);
    expect((await first.call('GET', '/api/realtime/token', { token: realtimeToken })).status).toBe(401);
  });
});
let outsiderToken = '';

describe('notifications', () => {
  it('reach members on another replica, only for entities they may read, and carry no content', async () => {
    const typeId = await freshType();
    const [alice, bob] = [await subscribe(second, tokens.alice), await subscribe(second, tokens.bob)];
    const secret = await write(first, tokens.owner, typeId, { title: 'secret', access: { read: { permission: `${projectId}::secret` } } });
    const open = await write(first, tokens.owner, typeId, { title: 'open' });
    await expect.poll(() => alice.notifications().map((n) => n.entityId), { timeout: 5_000 }).toEqual([secret.id, open.id]);
    await expect.poll(() => bob.notifications().map((n) => n.entityId), { timeout: 5_000 }).toContain(open.id);
    expect(bob.notifications().map((n) => n.entityId)).toEqual([open.id]);
    expect(alice.notifications()[1]).toEqual({ projectId, typeId, entityId: open.id, revision: 0, kind: 'created', updatedAt: expect.any(Number) });
    expect(alice.received.find((event) => event.event === 'ready')?.data).toEqual({ channel: `project:${projectId}:sync`, keepAliveMs: 15_000 });
  });

  it('a write of an entity access tells members who may no longer read it only `access-changed` with the type, never the entity', async () => {
    const typeId = await freshType();
    const [alice, bob] = [await subscribe(second, tokens.alice), await subscribe(second, tokens.bob)];
    const entity = await write(first, tokens.owner, typeId, { title: 'soon secret' });
    const restricted = await first.call('PATCH', `/api/projects/${projectId}/types/${typeId}/data/${entity.id}`, {
      token: tokens.owner,
      body: { baseRevision: 0, modifier: { $set: { access: { read: { permission: `${projectId}::secret` } } } } },
    });
    expect(restricted.status).toBe(200);
    await expect.poll(() => bob.received.filter((event) => event.event === 'access-changed').map((event) => event.data), { timeout: 5_000 }).toEqual([{ projectId, typeId }]);
    expect(bob.notifications().map((n) => n.revision)).toEqual([0]);
    await expect.poll(() => alice.notifications().map((n) => n.revision), { timeout: 5_000 }).toEqual([0, 1]);
    await write(first, tokens.owner, typeId, { title: 'an ordinary write', access: { read: { permission: `${projectId}::secret` } } });
    await expect.poll(() => alice.notifications().length, { timeout: 5_000 }).toBe(3);
    expect(bob.received.filter((event) => event.event === 'access-changed')).toHaveLength(1);
    expect(alice.received.filter((event) => event.event === 'access-changed')).toEqual([]);
  });

  it('a collection opted in to realtime pulls a remote change within 1.5 s', async () => {
    const typeId = await freshType();
    const alice = client(second, tokens.alice, [{ typeId, realtime: true }]);
    await alice.start();
    await expect.poll(() => alice.realtimeStatus, { timeout: 5_000 }).toBe('live');
    const arrived = new Map<string, number>();
    alice.on('change', (change) => {
      for (const document of [...change.added, ...change.modified]) arrived.set(document.id, Date.now());
    });
    const writtenAt = Date.now();
    const remote = await write(first, tokens.bob, typeId, { title: 'from bob' });
    await expect.poll(() => arrived.has(remote.id), { timeout: 3_000, interval: 20 }).toBe(true);
    expect((arrived.get(remote.id) as number) - writtenAt).toBeLessThan(1_500);
    expect(alice.collection(typeId).get(remote.id)).toMatchObject({ title: 'from bob', revision: 0 });
  });

  it('another collection only raises changesAvailable, never for this client\'s own writes; the heartbeat poll still pulls', async () => {
    const typeId = await freshType();
    const alice = client(second, tokens.alice, [typeId], { heartbeatMs: 1_500 });
    await alice.start();
    await expect.poll(() => alice.realtimeStatus, { timeout: 5_000 }).toBe('live');
    const stream = await subscribe(second, tokens.alice);
    const indicator: boolean[] = [];
    alice.on('changesAvailable', (event) => indicator.push(event.available));

    const own = await alice.collection(typeId).insert({ title: 'mine' });
    await alice.sync();
    await expect.poll(() => stream.notifications().map((n) => n.entityId), { timeout: 5_000 }).toContain(own.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(indicator).toEqual([]);
    expect(alice.collection(typeId).changesAvailable).toBe(false);

    const remote = await write(first, tokens.bob, typeId, { title: 'from bob' });
    await expect.poll(() => alice.collection(typeId).changesAvailable, { timeout: 3_000, interval: 20 }).toBe(true);
    expect(alice.collection(typeId).get(remote.id)).toBeUndefined();
    await expect.poll(() => alice.collection(typeId).get(remote.id), { timeout: 4_000, interval: 50 }).toMatchObject({ title: 'from bob' });
    expect(alice.collection(typeId).changesAvailable).toBe(false);
    expect(indicator).toEqual([true, false]);
  });

  it('falls back to polling every pollIntervalMs when the token endpoint answers 503', async () => {
    const typeId = await freshType();
    const alice = client(disabled, tokens.alice, [{ typeId, realtime: true }], { pollIntervalMs: 300 });
    await alice.start();
    await expect.poll(() => alice.realtimeStatus, { timeout: 5_000 }).toBe('polling');
    const remote = await write(first, tokens.bob, typeId, { title: 'polled' });
    await expect.poll(() => alice.collection(typeId).get(remote.id), { timeout: 2_000, interval: 20 }).toMatchObject({ title: 'polled' });
  });

  it('holds one stream after a stop and start while its token was on the way, and none once closed', async () => {
    const typeId = await freshType();
    const token = heldFetch((url) => url.endsWith('/api/realtime/token'), { hold: 'request', fetch });
    const streamSignals: AbortSignal[] = [];
    const watched: typeof fetch = async (input, init) => {
      if (String(input).includes('?token=') && init?.signal) streamSignals.push(init.signal);
      return token.fetch(input, init);
    };
    const alice = client(second, tokens.alice, [{ typeId, realtime: true }], { fetch: watched });
    await alice.start();
    await token.held;
    await alice.stop();
    await alice.start();
    token.release();
    await expect.poll(() => alice.realtimeStatus, { timeout: 5_000 }).toBe('live');
    // The attempt of before the stop gave up on its token: one stream, not two.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(streamSignals).toHaveLength(1);
    await alice.close();
    expect(streamSignals.every((signal) => signal.aborted)).toBe(true);
  });
});
