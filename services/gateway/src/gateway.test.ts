import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInProcessBus } from '@platform/bus';
import { SESSION_COOKIE, sessionKey, type SessionRecord } from '@platform/contracts';
import { createApp, createLogger, createLogMailer, hashToken, PRINCIPAL_HEADER, requireUser, sharedProjectAccess, signPrincipal, trustSignedPrincipal, userGuard, type ServiceContext, type ServiceDefinition } from '@platform/kit';
import { createMemoryKeyValue, type KeyValue } from '@platform/kv';
import { createEmbeddedStore } from '@platform/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from './app';

const logger = createLogger({ level: 'silent' });
const secret = randomBytes(32).toString('hex');
const DAY = 24 * 60 * 60 * 1000;

/** A KeyValue that can be switched off like an unreachable Redis, and counts reads. */
function switchableKeyValue(inner: KeyValue) {
  const state = { down: false, reads: 0 };
  const kv: KeyValue = {
    kind: inner.kind,
    get: async (key) => {
      state.reads += 1;
      if (state.down) throw new Error('connection refused');
      return inner.get(key);
    },
    set: (key, value, options) => inner.set(key, value, options),
    increment: (key, options) => inner.increment(key, options),
    delete: (key) => inner.delete(key),
    scan: (prefix) => inner.scan(prefix),
    setField: (key, field, value, options) => inner.setField(key, field, value, options),
    fields: (key) => inner.fields(key),
    deleteField: (key, field) => inner.deleteField(key, field),
    ping: async () => !state.down,
    close: () => inner.close(),
  };
  return { kv, state };
}

/** A service whose routes report who the gateway says is calling. */
const whoamiService: ServiceDefinition = {
  name: 'identity',
  routes: async (app) => {
    app.get('/api/me', { preHandler: userGuard }, async (request) => ({ principal: requireUser(request), requestId: request.id }));
    app.get('/api/users/anyone', async (request) => ({ principal: request.principal }));
  },
};

async function seedSession(kv: KeyValue, now: number, overrides: Partial<SessionRecord> = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const session: SessionRecord = { id: `s-${token.slice(0, 6)}`, userId: 'user-1', createdAt: now, expiresAt: now + 30 * DAY, platformOwner: false, ...overrides };
  await kv.set(sessionKey(hashToken(token)), JSON.stringify(session));
  return token;
}

describe('gateway in the all-in-one shape', () => {
  let dataDir: string;
  let context: ServiceContext;
  let gateway: Gateway;
  let switchable: ReturnType<typeof switchableKeyValue>;
  let now: number;

  beforeEach(async () => {
    now = Date.UTC(2026, 0, 1);
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-test-'));
    switchable = switchableKeyValue(createMemoryKeyValue({ now: () => now }));
    const store = await createEmbeddedStore({ dataDir });
    const bus = createInProcessBus();
    context = { dev: true, logger, clock: () => now, store, bus, kv: switchable.kv, mailer: createLogMailer(logger), ...sharedProjectAccess({ store, bus, clock: () => now, logger }), publicUrl: () => 'http://127.0.0.1' };
    gateway = await buildGateway({
      logger,
      kv: switchable.kv,
      clock: () => now,
      principalSecret: secret,
      sessionCookie: SESSION_COOKIE,
      local: { services: [whoamiService], context },
      remotes: new Map(),
      dependencyProbes: [{ name: 'kv', kind: 'memory', probe: () => switchable.kv.ping() }],
      guidesRoot: fileURLToPath(new URL('../../../docs', import.meta.url)),
    });
    await gateway.start();
  });

  afterEach(async () => {
    gateway.stop();
    await gateway.app.close();
    await context.store.close();
    await context.bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers /api/health with the status alone to anonymous callers, without touching the session store', async () => {
    const before = switchable.state.reads;
    const response = await gateway.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(switchable.state.reads).toBe(before);
    const local = await gateway.app.inject({ method: 'GET', url: '/api/health/identity' });
    expect(local.json()).toEqual({ service: 'identity', state: { up: true } });
  });

  it('shows health detail to platform owners only', async () => {
    const owner = await seedSession(switchable.kv, now, { platformOwner: true });
    const member = await seedSession(switchable.kv, now, { userId: 'user-2' });
    const detailed = await gateway.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${owner}` } });
    expect(detailed.json()).toMatchObject({ status: 'ok', shape: 'all-in-one', services: { identity: { up: true, kind: 'in-process' } }, dependencies: { kv: { up: true } } });
    const local = await gateway.app.inject({ method: 'GET', url: '/api/health/identity', headers: { cookie: `session=${owner}` } });
    expect(local.json()).toMatchObject({ service: 'identity', state: { up: true, kind: 'in-process' } });
    const ordinary = await gateway.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${member}` } });
    expect(ordinary.json()).toEqual({ status: 'ok' });
  });

  it('answers /api/health while the session store is down, to a caller presenting a session it cannot check', async () => {
    switchable.state.down = true;
    const response = await gateway.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: 'Bearer unseen-token' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('serves the guides while the session store is down, to a caller presenting a session it cannot check', async () => {
    switchable.state.down = true;
    const response = await gateway.app.inject({ method: 'GET', url: '/docs/interface.md', headers: { authorization: 'Bearer unseen-token' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.body).toContain('#');
  });

  it('guarded routes answer 401 JSON without a session', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('loads the session from a bearer header or the session cookie', async () => {
    const token = await seedSession(switchable.kv, now, { displayName: 'Ada' });
    // The scheme's case is free (RFC 9110): clients that send `bearer` are signed in too.
    for (const headers of [{ authorization: `Bearer ${token}` }, { authorization: `bearer ${token}` }, { authorization: `BEARER  ${token}` }, { cookie: `session=${token}` }]) {
      const response = await gateway.app.inject({ method: 'GET', url: '/api/me', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json().principal).toMatchObject({ kind: 'user', userId: 'user-1', displayName: 'Ada', platformOwner: false });
    }
  });

  it('treats unknown and expired sessions as anonymous', async () => {
    const unknown = await gateway.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: 'Bearer nope' } });
    expect(unknown.statusCode).toBe(401);
    const token = await seedSession(switchable.kv, now);
    now += 30 * DAY + 1;
    const expired = await gateway.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect(expired.statusCode).toBe(401);
    const open = await gateway.app.inject({ method: 'GET', url: '/api/users/anyone', headers: { authorization: `Bearer ${token}` } });
    expect(open.json()).toEqual({ principal: { kind: 'anonymous' } });
  });

  it('ignores a principal header sent by a client', async () => {
    const forged = Buffer.from(JSON.stringify({ p: { kind: 'user', userId: 'root', sessionId: 'x', platformOwner: true }, exp: now * 2 })).toString('base64url');
    const response = await gateway.app.inject({ method: 'GET', url: '/api/me', headers: { [PRINCIPAL_HEADER]: `${forged}.AAAA` } });
    expect(response.statusCode).toBe(401);
  });

  it('keeps a signed-in user working from its local cache while the store is down, until the session expires', async () => {
    const token = await seedSession(switchable.kv, now);
    const stranger = await seedSession(switchable.kv, now, { userId: 'user-2' });
    const headers = { authorization: `Bearer ${token}` };
    expect((await gateway.app.inject({ method: 'GET', url: '/api/me', headers })).statusCode).toBe(200);

    switchable.state.down = true;
    const cached = await gateway.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(cached.statusCode).toBe(200);
    expect(cached.json().principal.userId).toBe('user-1');

    const uncached = await gateway.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${stranger}` } });
    expect(uncached.statusCode).toBe(503);
    expect(uncached.json().code).toBe('GATEWAY_SESSION_STORE_UNAVAILABLE');

    now += 30 * DAY + 1;
    expect((await gateway.app.inject({ method: 'GET', url: '/api/me', headers })).statusCode).toBe(401);
  });

  it('reports a dependency that is down as degraded', async () => {
    const owner = await seedSession(switchable.kv, now, { platformOwner: true });
    expect((await gateway.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${owner}` } })).json().status).toBe('ok');
    switchable.state.down = true;
    // Restarting the monitors probes at once, instead of sleeping through their interval.
    gateway.stop();
    await gateway.start();
    // The owner's session comes from the gateway's local cache while the store is down.
    const response = await gateway.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${owner}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'degraded', dependencies: { kv: { up: false, kind: 'memory' } } });
  });
});

describe('gateway in the microservice shape', () => {
  let service: FastifyInstance;
  let gateway: Gateway;
  let kv: KeyValue;
  const now = Date.now();

  beforeAll(async () => {
    service = await createApp({ logger, title: 'identity', openapi: false });
    trustSignedPrincipal(service, secret);
    service.get('/api/health', async () => ({ from: 'identity process' }));
    await service.register(whoamiService.routes, {} as ServiceContext);
    await service.listen({ host: '127.0.0.1', port: 0 });
    const address = service.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    kv = createMemoryKeyValue();
    gateway = await buildGateway({
      logger,
      kv,
      clock: Date.now,
      principalSecret: secret,
      sessionCookie: SESSION_COOKIE,
      local: undefined,
      remotes: new Map([['identity', `http://127.0.0.1:${port}`]]),
      dependencyProbes: [],
    });
    await gateway.start();
  });

  afterAll(async () => {
    gateway.stop();
    await gateway.app.close();
    await service.close();
  });

  it("proxies with a freshly signed principal and the gateway's request id", async () => {
    const token = await seedSession(kv, now);
    const response = await gateway.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-42' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ principal: { kind: 'user', userId: 'user-1' }, requestId: response.headers['x-request-id'] });
    expect(response.json().requestId).not.toBe('trace-42');
  });

  it('signs anonymous callers too, and replaces a principal header sent by the client', async () => {
    const forged = 'eyJwIjp7ImtpbmQiOiJ1c2VyIn19.AAAA';
    const response = await gateway.app.inject({ method: 'GET', url: '/api/users/anyone', headers: { [PRINCIPAL_HEADER]: forged } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ principal: { kind: 'anonymous' } });
  });

  it("reports the remote service up in health, and its URL to platform owners only", async () => {
    const owner = await seedSession(kv, now, { platformOwner: true });
    const response = await gateway.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${owner}` } });
    expect(response.json()).toMatchObject({ shape: 'microservices', services: { identity: { up: true, kind: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/) } } });
    const anonymous = await gateway.app.inject({ method: 'GET', url: '/api/health' });
    expect(anonymous.json()).toEqual({ status: 'ok' });
    expect(anonymous.body).not.toContain('127.0.0.1');
  });

  it('proxies /api/health/{service} to that service\'s own /api/health', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/health/identity' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ from: 'identity process' });
  });

  it('a service reached directly without a signature answers 401', async () => {
    const response = await service.inject({ method: 'GET', url: '/api/users/anyone' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNSIGNED_REQUEST');
  });

  it('a service refuses a validly signed principal whose exp lies beyond one lifetime, and a MAC spelled other than canonically', async () => {
    const owner = { kind: 'user', userId: 'user-1', sessionId: 's1', platformOwner: true } as const;
    const payload = Buffer.from(JSON.stringify({ p: owner, exp: Date.now() + 365 * DAY })).toString('base64url');
    const longLived = `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    const fresh = signPrincipal(owner, secret);
    const asPrincipal = (header: string) => service.inject({ method: 'GET', url: '/api/me', headers: { [PRINCIPAL_HEADER]: header } });
    expect((await asPrincipal(fresh)).statusCode).toBe(200);
    for (const header of [longLived, `${fresh}=`, `${fresh}==`]) {
      const response = await asPrincipal(header);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('UNSIGNED_REQUEST');
    }
  });
});
