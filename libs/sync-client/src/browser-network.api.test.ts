import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { flakyNetwork, simulatedBrowser } from './testing';
import type { SyncClientOptions } from './sync-client';
import type { RealtimeStatus } from './types';

/**
 * Issue 29: in a browser the window's `online` event retries at once, as `client.online()` does, and
 * while the browser says it has no network (`navigator.onLine === false`, its `offline`
 * event) the client tries nothing, so its backoff does not grow, and reports `offline`; the
 * `online` event syncs at once. The application's own calls follow the browser too: `awaitInSync()`
 * waits for the `online` event (or `online()`) instead of a backoff, and `sync()`, `push()` and
 * `pull()` reject at once with OfflineError. The client looks for the window when its module loads, so this
 * file gives Node a window-like event target and a navigator first and imports the client after.
 */
const browser = simulatedBrowser();
let platform: TestGateway;
let projectId: string;
let client: InstanceType<typeof import('./index').SyncClient> | undefined;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService], realtime: true });
  await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'bob' }] });
  for (const [name, value] of Object.entries(browser.globals)) vi.stubGlobal(name, value);
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  browser.navigator.onLine = true;
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await platform?.close();
});

async function newClient(overrides: Partial<SyncClientOptions> = {}) {
  const { SyncClient } = await import('./index');
  const owner = await platform.signIn('owner');
  const typeId = `offline${Date.now().toString(36)}`;
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id: typeId, name: typeId } })).status).toBe(201);
  const { network, fetch } = flakyNetwork(platform.url);
  client = new SyncClient({
    baseUrl: platform.url,
    projectId,
    collections: [typeId],
    token: await platform.signIn('bob'),
    fetch,
    pollIntervalMs: 200,
    backoff: { initialMs: 100, factor: 2, maxMs: 60_000, random: () => 1 },
    ...overrides,
  });
  const statuses: RealtimeStatus[] = [];
  client.on('realtime', ({ status }) => statuses.push(status));
  return { client, typeId, network, statuses };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the browser's online event", () => {
  it('pushes within a second of the window saying the network is back, however long the backoff has grown', async () => {
    const { client, typeId, network } = await newClient({ realtime: false, pollIntervalMs: 60_000, backoff: { initialMs: 500, factor: 4, maxMs: 60_000, random: () => 1 } });
    await client.start();
    network.online = false;
    const queued = await client.collection(typeId).insert({ title: 'written offline' });
    // Retries at 0.5 s and 2.5 s; the next one would wait 8 s more.
    await expect.poll(() => network.failures, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    const back = Date.now();
    browser.comeOnline(network);
    await expect.poll(() => client.collection(typeId).state(queued.id), { timeout: 1_000, interval: 20 }).toBe('synced');
    expect(Date.now() - back).toBeLessThan(1_000);
  });
});

describe("the browser's offline state", () => {
  it('reports offline and tries nothing while the browser is offline, then pushes within a second of its online event', async () => {
    const { client, typeId, network, statuses } = await newClient();
    await client.start();
    await expect.poll(() => client.realtimeStatus, { timeout: 10_000 }).toBe('live');

    browser.goOffline(network);
    expect(client.realtimeStatus).toBe('offline');
    expect(statuses.at(-1)).toBe('offline');
    const queued = await client.collection(typeId).insert({ title: 'written offline' });
    // Retries at 0.1, 0.3, 0.7 and 1.5 s would each have failed (and the stream's reconnects too).
    await pause(2_000);
    expect(network.failures).toBe(0);
    expect(client.realtimeStatus).toBe('offline');
    expect(client.collection(typeId).state(queued.id)).toBe('localChanges');

    const back = Date.now();
    browser.comeOnline(network);
    await expect.poll(() => client.collection(typeId).state(queued.id), { timeout: 1_000, interval: 20 }).toBe('synced');
    expect(Date.now() - back).toBeLessThan(1_000);
    await expect.poll(() => client.realtimeStatus, { timeout: 10_000 }).toBe('live');
  });

  it('started while the browser is offline: start() resolves without a request, reports offline, and syncs on the online event', async () => {
    const { client, typeId, network } = await newClient();
    browser.goOffline(network);
    await client.start();
    expect(client.realtimeStatus).toBe('offline');
    const queued = await client.collection(typeId).insert({ title: 'written before any sync' });
    await pause(1_000);
    expect(network.failures).toBe(0);
    expect(network.requests).toEqual([]);

    browser.comeOnline(network);
    await expect.poll(() => client.collection(typeId).state(queued.id), { timeout: 1_000, interval: 20 }).toBe('synced');
    await expect.poll(() => client.realtimeStatus, { timeout: 10_000 }).toBe('live');
  });
});

describe("the application's calls while the browser is offline", () => {
  it('awaitInSync() tries nothing while the browser is offline and resolves within a second of its online event', async () => {
    const { client, typeId, network } = await newClient();
    await client.start();
    await expect.poll(() => client.realtimeStatus, { timeout: 10_000 }).toBe('live');
    browser.goOffline(network);
    const queued = await client.collection(typeId).insert({ title: 'awaited offline' });
    let inSync = false;
    const waiting = client.awaitInSync().then(() => {
      inSync = true;
    });
    // Retries at 0.1, 0.3, 0.7, 1.5 and 3.1 s would each have failed, and the next been due at 6.3 s.
    await pause(3_500);
    expect(network.failures).toBe(0);
    expect(inSync).toBe(false);

    browser.comeOnline(network);
    await expect.poll(() => inSync, { timeout: 1_000, interval: 20 }).toBe(true);
    await waiting;
    expect(client.collection(typeId).state(queued.id)).toBe('synced');
  });

  it('awaitInSync() retrying an unreachable server stops waiting out its backoff when online() says the network is back', async () => {
    const { client, typeId, network } = await newClient({ realtime: false, pollIntervalMs: 60_000, backoff: { initialMs: 500, factor: 4, maxMs: 60_000, random: () => 1 } });
    await client.start();
    network.online = false;
    const queued = await client.collection(typeId).insert({ title: 'awaited while unreachable' });
    let inSync = false;
    const waiting = client.awaitInSync().then(() => {
      inSync = true;
    });
    // The background push and awaitInSync share the backoff: attempts at 0, 0.5 and 2 s, the next not before 8.5 s.
    await pause(2_500);
    expect(network.failures).toBeGreaterThanOrEqual(3);

    network.online = true;
    client.online();
    await expect.poll(() => inSync, { timeout: 1_000, interval: 20 }).toBe(true);
    await waiting;
    expect(client.collection(typeId).state(queued.id)).toBe('synced');
  });

  it('sync(), push() and pull() reject at once with OfflineError, send nothing and keep the queue; they work again after the online event', async () => {
    const { OfflineError } = await import('./index');
    const { client, typeId, network } = await newClient();
    await client.start();
    await expect.poll(() => client.realtimeStatus, { timeout: 10_000 }).toBe('live');
    browser.goOffline(network);
    const queued = await client.collection(typeId).insert({ title: 'synced by hand offline' });
    const failuresBefore = network.failures;
    for (const call of [() => client.sync(), () => client.push(), () => client.collection(typeId).pull()]) {
      const refusal = await call().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(OfflineError);
      expect((refusal as Error).message).toMatch(/offline/);
    }
    expect(network.failures).toBe(failuresBefore);
    expect(client.collection(typeId).state(queued.id)).toBe('localChanges');
    expect(client.realtimeStatus).toBe('offline');

    browser.comeOnline(network);
    await client.sync();
    expect(client.collection(typeId).state(queued.id)).toBe('synced');
  });

  it('a client never started refuses sync() offline without a request, and its awaitInSync() resolves on the online event', async () => {
    const { OfflineError } = await import('./index');
    const { client, typeId, network } = await newClient();
    browser.goOffline(network);
    const queued = await client.collection(typeId).insert({ title: 'written before start' });
    await expect(client.sync()).rejects.toBeInstanceOf(OfflineError);
    const waiting = client.awaitInSync();
    await pause(500);
    expect(network.failures).toBe(0);
    expect(network.requests).toEqual([]);

    browser.comeOnline(network);
    await waiting;
    expect(client.collection(typeId).state(queued.id)).toBe('synced');
  });
});
