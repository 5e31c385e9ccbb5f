import { randomBytes } from 'node:crypto';
import { sessionKey, type SessionRecord } from '@platform/contracts';
import { hashToken } from '@platform/kit';
import { createRedisKeyValue } from '@platform/kv';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalTopology, type LocalTopology } from './local-topology';

describeWithBackends(['mongo', 'nats', 'redis'], 'the docker-compose topology as local processes', (urls) => {
  let topology: LocalTopology;

  beforeAll(async () => {
    topology = await startLocalTopology({
      backendUrls: urls,
      // As `PORT=0 pnpm start:services` asks: a free port for the gateway, announced as the one it listens on.
      gatewayPort: 0,
      extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `compose_${randomBytes(4).toString('hex')}` },
    });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  });

  it('reports every service and backend up through the gateway, in detail to a platform owner only', async () => {
    expect(topology.gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    const anonymous = await fetch(`${topology.gatewayUrl}/api/health`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ status: 'ok' });
    // An owner's session written to the shared Redis as identity writes one.
    const token = randomBytes(32).toString('base64url');
    const owner: SessionRecord = { id: 'owner-session', userId: 'owner', createdAt: Date.now(), expiresAt: Date.now() + 60_000, platformOwner: true };
    const kv = await createRedisKeyValue({ url: urls.redis, keyPrefix: topology.redisKeyPrefix });
    await kv.set(sessionKey(hashToken(token)), JSON.stringify(owner), { ttlMs: 60_000 });
    await kv.close();
    const response = await fetch(`${topology.gatewayUrl}/api/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; shape: string; services: Record<string, { up: boolean }>; dependencies: Record<string, { up: boolean; kind: string }> };
    expect(body.shape).toBe('microservices');
    expect(Object.keys(body.services).sort()).toEqual(['actions', 'audit', 'data', 'identity', 'publishing', 'visitors']);
    for (const [name, state] of Object.entries(body.services)) expect({ name, up: state.up }).toEqual({ name, up: true });
    expect(body.dependencies.kv).toMatchObject({ up: true, kind: 'redis' });
    expect(body.dependencies.bus).toMatchObject({ up: true, kind: 'nats' });
    expect(body.status).toBe('ok');
  });

  it('proxies a guarded route to its service and answers 401 JSON without a session', async () => {
    const response = await fetch(`${topology.gatewayUrl}/api/me`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('signs up, signs in with the cookie, and reaches data through the gateway', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${topology.gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const email = `compose-${randomBytes(4).toString('hex')}@example.org`;
    expect((await post('/api/auth/register', { email, password: 'compose password' })).status).toBe(201);
    const login = await post('/api/auth/login', { email, password: 'compose password' });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const me = await fetch(`${topology.gatewayUrl}/api/me`, { headers: { cookie } });
    expect(((await me.json()) as { email: string }).email).toBe(email);
    const project = (await (await post('/api/projects', { name: 'Compose' }, { cookie })).json()) as { id: string };
    const type = await post(`/api/projects/${project.id}/types`, { name: 'Notes' }, { cookie });
    expect(type.status).toBe(201);
    // A method the service's routes do not take at a path: 405 from the service, through the gateway.
    const put = await fetch(`${topology.gatewayUrl}/api/projects/${project.id}/types/notes/data/n1`, { method: 'PUT', headers: { 'content-type': 'application/json', cookie }, body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('services refuse requests that did not come through the gateway', async () => {
    const direct = await fetch(`${topology.serviceUrls.get('identity')}/api/me`, { headers: { 'x-platform-principal': 'forged.signature' } });
    expect(direct.status).toBe(401);
    expect(await direct.json()).toMatchObject({ code: 'UNSIGNED_REQUEST' });
  });
});
