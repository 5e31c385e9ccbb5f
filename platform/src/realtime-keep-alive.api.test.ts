import { ConfigError } from '@platform/kit';
import { SyncClient } from '@platform/sync-client';
import { silentDropProxy } from '@platform/sync-client/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { allInOneForTests } from './testing/platforms-on-disk';

/** Far below the 15 s default, so a client that kept its own default would take 30 s to notice a drop. */
const KEEP_ALIVE_MS = 1_000;

const { platform, call } = allInOneForTests('realtime-keep-alive-', { REALTIME_KEEP_ALIVE_MS: String(KEEP_ALIVE_MS) });
let session: string;
let projectId: string;

beforeAll(async () => {
  const registered = await call('POST', '/api/auth/register', undefined, { email: `keep-alive-${Date.now()}@example.org`, password: 'keep-alive password 1' });
  expect(registered.status).toBe(201);
  session = registered.body.token as string;
  const project = await call('POST', '/api/projects', session, { name: 'keep-alive project' });
  expect(project.status).toBe(201);
  projectId = project.body.id as string;
});


describe('REALTIME_KEEP_ALIVE_MS', () => {
  it('refuses a value outside 1000..300000 or not below HTTP_IDLE_TIMEOUT_MS, naming the variable', () => {
    for (const env of [{ REALTIME_KEEP_ALIVE_MS: '50' }, { REALTIME_KEEP_ALIVE_MS: '300001' }, { REALTIME_KEEP_ALIVE_MS: 'soon' }, { REALTIME_KEEP_ALIVE_MS: '120000' }, { REALTIME_KEEP_ALIVE_MS: '20000', HTTP_IDLE_TIMEOUT_MS: '20000' }]) {
      expect(() => loadPlatformConfig(env)).toThrow(ConfigError);
      expect(() => loadPlatformConfig(env)).toThrow(/REALTIME_KEEP_ALIVE_MS/);
    }
    expect(loadPlatformConfig({}).REALTIME_KEEP_ALIVE_MS).toBe(15_000);
    expect(loadPlatformConfig({ REALTIME_KEEP_ALIVE_MS: '200000', HTTP_IDLE_TIMEOUT_MS: '300000' }).REALTIME_KEEP_ALIVE_MS).toBe(200_000);
  });

  it('sets the stream keep-alive interval, announced in its ready event', async () => {
    const token = await call('GET', '/api/realtime/token', session);
    expect(token.status).toBe(200);
    const abort = new AbortController();
    const response = await fetch(`${platform().url}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(token.body.token)}`, { signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const openedAt = Date.now();
    let text = '';
    while (!text.includes(': keep-alive') && Date.now() - openedAt < 5 * KEEP_ALIVE_MS) text += decoder.decode((await reader.read()).value, { stream: true });
    const keepAliveAfterMs = Date.now() - openedAt;
    abort.abort();
    const ready = /event: ready\ndata: (.*)\n/.exec(text)?.[1];
    expect(JSON.parse(ready ?? '{}')).toEqual({ channel: `project:${projectId}:sync`, keepAliveMs: KEEP_ALIVE_MS });
    expect(text).toContain(': keep-alive');
    expect(keepAliveAfterMs).toBeLessThan(3 * KEEP_ALIVE_MS);
  }, 20_000);

  it("lets a sync client with the default streamKeepAliveMs notice a silent drop within twice the server's interval", async () => {
    const typeId = `k${Date.now().toString(36)}`;
    expect((await call('POST', `/api/projects/${projectId}/types`, session, { id: typeId, name: typeId })).status).toBe(201);
    const proxy = await silentDropProxy(platform().url);
    const client = new SyncClient({ baseUrl: proxy.url, projectId, token: session, collections: [{ typeId, realtime: true }], pollIntervalMs: 60_000, heartbeatMs: 60_000 });
    try {
      await client.start();
      await expect.poll(() => client.realtimeStatus, { timeout: 5_000 }).toBe('live');
      proxy.drop();
      const droppedAt = Date.now();
      await expect.poll(() => client.realtimeStatus, { timeout: 10_000, interval: 100 }).not.toBe('live');
      expect(Date.now() - droppedAt).toBeLessThan(2 * KEEP_ALIVE_MS + 2_000);
    } finally {
      await client.close();
      await proxy.close();
    }
  }, 30_000);
});
