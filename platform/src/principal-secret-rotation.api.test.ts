import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { httpCaller, openSyncStream } from './testing/platform-http';

/**
 * PRINCIPAL_SECRET rotated across processes (docs/architecture.md, The principal secret): a
 * services process still signing with the old secret and accepting the next, a gateway already on
 * the next and accepting the old, each serving the other; a gateway on a secret neither accepts is refused.
 */
describeWithBackends(['mongo', 'redis'], 'rotating PRINCIPAL_SECRET across processes', (backends) => {
  const [old, next] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
  let dataDir: string;
  const started: RunningPlatform[] = [];
  let services: RunningPlatform;
  let urls: Record<string, string>;
  let shared: Record<string, string>;

  const gatewayOn = async (secrets: Record<string, string>, name: string) => {
    const gateway = await startPlatform(loadPlatformConfig({ ...shared, ...urls, ...secrets, SERVICES: 'gateway', DATA_DIR: join(dataDir, name) }));
    started.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'principal-rotation-'));
    const run = randomBytes(4).toString('hex');
    // One store and one session store for every process: a gateway-only process reads subscribers' projects from the store.
    shared = { PORT: '0', LOG_LEVEL: 'silent', MONGO_URL: backends.mongo, MONGO_DATABASE: `rotation_${run}`, REDIS_URL: backends.redis, REDIS_KEY_PREFIX: `rotation-${run}:` };
    services = await startPlatform(loadPlatformConfig({ ...shared, PRINCIPAL_SECRET: old, PRINCIPAL_SECRET_FALLBACK: next, SERVICES: 'identity,data,audit,publishing,actions,visitors', DATA_DIR: join(dataDir, 'services') }));
    started.push(services);
    urls = Object.fromEntries(['IDENTITY_URL', 'DATA_URL', 'AUDIT_URL', 'PUBLISHING_URL', 'ACTIONS_URL', 'VISITORS_URL'].map((name) => [name, services.url]));
  });

  afterAll(async () => {
    for (const platform of started.reverse()) await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves a gateway on the next secret and a gateway still on the old one with one session; realtime tokens cross only to a gateway accepting their secret', async () => {
    const moved = await gatewayOn({ PRINCIPAL_SECRET: next, PRINCIPAL_SECRET_FALLBACK: old }, 'moved');
    const behind = await gatewayOn({ PRINCIPAL_SECRET: old }, 'behind');
    const callMoved = httpCaller(() => moved.url);
    const callBehind = httpCaller(() => behind.url);

    const registered = await callMoved('POST', '/api/auth/register', undefined, { email: `rotation-${Date.now()}@example.org`, password: 'rotation password 1' });
    expect(registered.status).toBe(201);
    const token = registered.body.token as string;
    const project = await callMoved('POST', '/api/projects', token, { name: 'Rotated' });
    expect(project.status).toBe(201);
    expect((await callBehind('GET', `/api/projects/${project.body.id}`, token)).body.name).toBe('Rotated');

    // A token from the gateway still on the old secret opens a stream on the moved one.
    const issuedBehind = await callBehind('GET', '/api/realtime/token', token);
    const stream = await fetch(`${moved.url}/api/realtime/projects/${project.body.id}/sync?token=${encodeURIComponent(issuedBehind.body.token)}`);
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    const onMoved = await openSyncStream(moved.url, token, project.body.id);
    expect(onMoved).toBeDefined();
    onMoved?.close();
    // The other way needs the next secret as the old gateway's fallback first (the rotation's first step).
    const issuedMoved = await callMoved('GET', '/api/realtime/token', token);
    const refused = await fetch(`${behind.url}/api/realtime/projects/${project.body.id}/sync?token=${encodeURIComponent(issuedMoved.body.token)}`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('REALTIME_TOKEN_INVALID');
  });

  it('refuses, through a gateway whose secret the services do not accept, every request a service answers', async () => {
    const stranger = await gatewayOn({ PRINCIPAL_SECRET: randomBytes(32).toString('hex') }, 'stranger');
    const refused = await httpCaller(() => stranger.url)('POST', '/api/auth/register', undefined, { email: `stranger-${Date.now()}@example.org`, password: 'rotation password 1' });
    expect(refused).toMatchObject({ status: 401, body: { code: 'UNSIGNED_REQUEST' } });
  });
});
