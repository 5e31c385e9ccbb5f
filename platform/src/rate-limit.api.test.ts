import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SyncClient } from '@platform/sync-client';
import { metricsText } from '@platform/telemetry';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { httpCaller, registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { sharedBackendsEnvironment } from './testing/shared-backends';

const MAX = 8;
const WINDOW_MS = 3_600_000;
const LIMITED = { RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_MS: String(WINDOW_MS) };

/** Windows are aligned to the clock: a test that started just before a window ends would see its counts start again. */
async function awayFromWindowEnd(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** The same limit through the front door of each shape; `urls` are the gateways (two share one budget in the microservice shape). */
function rateLimitSuite(start: () => Promise<{ urls: string[]; close(): Promise<void> }>): void {
  let platform: { urls: string[]; close(): Promise<void> };
  const gateway = (index: number) => platform.urls[index % platform.urls.length]!;

  beforeAll(async () => {
    await awayFromWindowEnd();
    platform = await start();
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
  });

  it('holds each signed-in user to its own budget across the gateways, then answers 429 with Retry-After; anonymous callers share their address', async () => {
    // Two registrations: two anonymous requests from this address.
    const ada = await registerAccount(httpCaller(() => gateway(0)), 'limited-ada');
    const bea = await registerAccount(httpCaller(() => gateway(1)), 'limited-bea');
    const me = (index: number, token?: string) => fetch(`${gateway(index)}/api/me`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

    const remaining: Array<string | null> = [];
    for (let sent = 0; sent < MAX; sent += 1) {
      const answer = await me(sent, ada.token);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe(String(MAX));
      remaining.push(answer.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(Array.from({ length: MAX }, (_, index) => String(MAX - index - 1)));
    const refused = await me(MAX, ada.token);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'GATEWAY_RATE_LIMITED', error: expect.stringContaining(`at most ${MAX} every ${WINDOW_MS / 1000} s`) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(WINDOW_MS / 1000);
    // A write is refused before it is made.
    const write = await fetch(`${gateway(1)}/api/projects`, { method: 'POST', headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'too many' }) });
    expect(write.status).toBe(429);
    expect((await (await me(0, bea.token)).json()).id).toBe(bea.userId);
    const projects = await fetch(`${gateway(0)}/api/projects`, { headers: { authorization: `Bearer ${bea.token}` } });
    expect(((await projects.json()) as { items: Array<{ name: string }> }).items.map((project) => project.name)).not.toContain('too many');

    // This address's anonymous budget: the two registrations, then the rest.
    for (let sent = 2; sent < MAX; sent += 1) expect((await me(sent)).status).toBe(401);
    expect((await me(0)).status).toBe(429);
    // Health probes and the console's files are never limited.
    for (const path of ['/api/health', '/api/health/identity', '/console/']) expect((await fetch(`${gateway(0)}${path}`)).status, path).not.toBe(429);

    const counted = await metricsText();
    expect(counted).toMatch(/platform_gateway_rate_limited_total\{caller="user"\} [1-9]/);
    expect(counted).toMatch(/platform_gateway_rate_limited_total\{caller="address"\} [1-9]/);
  });
}

describe('RATE_LIMIT_MAX, all-in-one', () => {
  rateLimitSuite(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rate-limit-'));
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...LIMITED }));
    return {
      urls: [platform.url],
      close: async () => {
        await platform.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
});

describeWithBackends(['mongo', 'nats', 'redis'], 'RATE_LIMIT_MAX, two gateway processes in front of a services process', (backends) => {
  rateLimitSuite(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rate-limit-proxied-'));
    const shared = { PORT: '0', LOG_LEVEL: 'silent', ...sharedBackendsEnvironment(backends, `rate_${randomBytes(4).toString('hex')}`), PRINCIPAL_SECRET: randomBytes(32).toString('hex') };
    const services: RunningPlatform = await startPlatform(loadPlatformConfig({ ...shared, SERVICES: 'identity,data,audit,publishing,actions,visitors', DATA_DIR: join(dataDir, 'services') }));
    const urls = Object.fromEntries(['IDENTITY_URL', 'DATA_URL', 'AUDIT_URL', 'PUBLISHING_URL', 'ACTIONS_URL', 'VISITORS_URL'].map((name) => [name, services.url]));
    const gateways = [
      await startPlatform(loadPlatformConfig({ ...shared, ...urls, ...LIMITED, SERVICES: 'gateway', DATA_DIR: join(dataDir, 'gateway-1') })),
      await startPlatform(loadPlatformConfig({ ...shared, ...urls, ...LIMITED, SERVICES: 'gateway', DATA_DIR: join(dataDir, 'gateway-2') })),
    ];
    return {
      urls: gateways.map((gateway) => gateway.url),
      close: async () => {
        for (const gateway of gateways) await gateway.close();
        await services.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
});

/** The tests' own calls share the user's budget with the client: they wait out a refusal too. */
function waitingOutRefusals<Call extends (...args: never[]) => Promise<{ status: number }>>(call: Call): Call {
  return (async (...args: Parameters<Call>) => {
    for (;;) {
      const answer = await call(...args);
      if (answer.status !== 429) return answer;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }) as Call;
}

describe('the sync client behind a rate limit', () => {
  const { platform, call: limitedCall } = allInOneForTests('rate-limit-client-', { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '1000' });
  const call = waitingOutRefusals(limitedCall);

  it('keeps its changes queued through the 429s of a burst and syncs every one, none refused', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, { email: `burst-${Date.now()}@example.org`, password: 'burst owner password' });
    const token = registered.body.token as string;
    const project = (await call('POST', '/api/projects', token, { name: 'burst' })).body.id as string;
    expect((await call('POST', `/api/projects/${project}/types`, token, { id: 'readings', name: 'Readings' })).status).toBe(201);

    const client = new SyncClient({ baseUrl: platform().url, projectId: project, token, collections: [{ typeId: 'readings' }], pollIntervalMs: 60_000 });
    const refusals = async () => Number(/platform_gateway_rate_limited_total\{caller="user"\} (\d+)/.exec(await metricsText())?.[1] ?? 0);
    const refusedBefore = await refusals();
    try {
      await client.start();
      const inserted = [];
      for (let reading = 0; reading < 12; reading += 1) inserted.push(await client.collection('readings').insert({ value: reading }));
      await client.awaitInSync();
      expect(inserted.map((document) => client.collection('readings').conflict(document.id))).toEqual(inserted.map(() => undefined));
      const stored = await call('GET', `/api/projects/${project}/types/readings/data?updatedAt=0&limit=100`, token);
      expect(stored.body.items.map((item: { value: number }) => item.value).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 12 }, (_, index) => index));
      // The burst did meet the limit.
      expect(await refusals()).toBeGreaterThan(refusedBefore);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('the sync client waits out Retry-After', () => {
  const WINDOW = 3_000;
  const { platform, call: limitedCall } = allInOneForTests('rate-limit-retry-after-', { RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_MS: String(WINDOW) });
  const call = waitingOutRefusals(limitedCall);

  it('retries a refused push when the window ends, not on its own much shorter backoff', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, { email: `patient-${Date.now()}@example.org`, password: 'patient owner password' });
    const token = registered.body.token as string;
    const project = (await call('POST', `/api/projects`, token, { name: 'patient' })).body.id as string;
    expect((await call('POST', `/api/projects/${project}/types`, token, { id: 'notes', name: 'Notes' })).status).toBe(201);

    // A backoff of 5 ms growing by a fifth each time would try about 25 times in one window.
    const client = new SyncClient({ baseUrl: platform().url, projectId: project, token, collections: [{ typeId: 'notes' }], pollIntervalMs: 60_000, backoff: { initialMs: 5, factor: 1.2 } });
    const refusals = async () => Number(/platform_gateway_rate_limited_total\{caller="user"\} (\d+)/.exec(await metricsText())?.[1] ?? 0);
    try {
      await client.start();
      const refusedBefore = await refusals();
      const notes = [];
      for (let note = 0; note < 6; note += 1) notes.push(await client.collection('notes').insert({ note }));
      await client.awaitInSync();
      const refused = (await refusals()) - refusedBefore;
      expect(refused).toBeGreaterThan(0);
      // At most one refusal a window for each of the client's three retrying loops (pushing, pulling
      // until in sync, the realtime link), in the two or three windows the test spans.
      expect(refused).toBeLessThanOrEqual(9);
      const stored = await call('GET', `/api/projects/${project}/types/notes/data?updatedAt=0&limit=100`, token);
      expect(stored.body.items.map((item: { note: number }) => item.note).sort((a: number, b: number) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('polls no sooner than a refused pull’s Retry-After, however short its interval', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, { email: `poller-${Date.now()}@example.org`, password: 'patient poller password' });
    const token = registered.body.token as string;
    const project = (await call('POST', `/api/projects`, token, { name: 'polled' })).body.id as string;
    expect((await call('POST', `/api/projects/${project}/types`, token, { id: 'notes', name: 'Notes' })).status).toBe(201);

    const pulls: number[] = [];
    const counted: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (String(input).includes('/types/notes/data?')) pulls.push(answer.status);
      return answer;
    };
    // A poll every 50 ms would send some sixty pulls in one window of the limit.
    const client = new SyncClient({ baseUrl: platform().url, projectId: project, token, collections: [{ typeId: 'notes' }], realtime: false, pollIntervalMs: 50, fetch: counted });
    try {
      await client.start().catch(() => undefined);
      await expect.poll(() => pulls.filter((status) => status === 429).length, { timeout: WINDOW * 2 }).toBeGreaterThan(0);
      const refusedAt = pulls.length;
      await new Promise((resolve) => setTimeout(resolve, WINDOW));
      // After the first refusal, the next poll waits for the window's end: one more pull at most in that time, not dozens.
      expect(pulls.length - refusedAt).toBeLessThanOrEqual(2);
    } finally {
      await client.close();
    }
  }, 60_000);
});
