import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { flakyNetwork, simulatedBrowser } from './testing';

/**
 * Issue 29: in a browser the window's `online` event retries at once, as `client.online()` does.
 * The client looks for the window when its module loads, so this file gives Node a window-like
 * event target and navigator first and imports the client afterwards.
 */
const browser = simulatedBrowser();
let platform: TestGateway;
let projectId: string;
let client: InstanceType<typeof import('./index').SyncClient> | undefined;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'bob' }] });
  for (const [name, value] of Object.entries(browser.globals)) vi.stubGlobal(name, value);
});

afterAll(async () => {
  await client?.close();
  vi.unstubAllGlobals();
  await platform?.close();
});

describe("the browser's online event", () => {
  it('pushes within a second of the window saying the network is back, however long the backoff has grown', async () => {
    const { SyncClient } = await import('./index');
    const owner = await platform.signIn('owner');
    const typeId = `online${Date.now().toString(36)}`;
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id: typeId, name: typeId } })).status).toBe(201);
    const { network, fetch } = flakyNetwork(platform.url);
    client = new SyncClient({
      baseUrl: platform.url,
      projectId,
      collections: [typeId],
      token: await platform.signIn('bob'),
      fetch,
      realtime: false,
      pollIntervalMs: 60_000,
      backoff: { initialMs: 500, factor: 4, maxMs: 60_000, random: () => 1 },
    });
    await client.start();
    network.online = false;
    const queued = await client.collection(typeId).insert({ title: 'written offline' });
    // Retries at 0.5 s and 2.5 s; the next one would wait 8 s more.
    await expect.poll(() => network.failures, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    const back = Date.now();
    browser.comeOnline(network);
    await expect.poll(() => client?.collection(typeId).state(queued.id), { timeout: 1_000, interval: 20 }).toBe('synced');
    expect(Date.now() - back).toBeLessThan(1_000);
  });
});
