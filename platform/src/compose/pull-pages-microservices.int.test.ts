import { randomBytes } from 'node:crypto';
import { runConcurrentWritesAndPulls } from '@platform/data/testing';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalTopology, type LocalTopology } from './local-topology';

/**
 * Clients that pull with `updatedAt` only (never the cursor), against the microservice shape: the
 * data service on MongoDB, where pulls read only writes older than the settle margin and slow
 * writes are restamped. Concurrent writers and random page sizes; every client ends with every
 * entity at its last revision.
 */
describeWithBackends(['mongo', 'nats', 'redis'], 'pull pages with updatedAt only, microservice shape', (urls) => {
  let topology: LocalTopology;
  let token: string;
  let projectId: string;

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${topology.gatewayUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    topology = await startLocalTopology({ backendUrls: urls, extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `pages_${randomBytes(4).toString('hex')}` } });
    const registered = await fetch(`${topology.gatewayUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `pages-${randomBytes(3).toString('hex')}@example.org`, password: 'pages password 1' }),
    });
    expect(registered.status).toBe(201);
    token = ((await registered.json()) as { token: string }).token;
    const project = await call('POST', '/api/projects', { name: 'Pull pages' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  });

  it('concurrent writers, random page sizes: clients using only updatedAt miss nothing', async () => {
    const type = await call('POST', `/api/projects/${projectId}/types`, { name: 'Pages' });
    expect(type.status).toBe(201);
    const seed = Number(process.env.PULL_PAGES_SEED ?? Date.now() % 100_000);
      const result = await runConcurrentWritesAndPulls({
      call,
      typePath: `/api/projects/${projectId}/types/${type.body.id}`,
      seed,
      // The data service's settle margin on MongoDB (1 s, docs/sync.md), and some.
      settleMs: 1_200,
      rounds: 25,
    });
    expect(result.server.size).toBeGreaterThan(0);
    for (const client of result.clients) expect(client, `PULL_PAGES_SEED=${seed}`).toEqual(result.server);
  }, 120_000);
});
