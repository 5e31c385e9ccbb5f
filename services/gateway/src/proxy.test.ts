import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE, sessionKey, type SessionRecord } from '@platform/contracts';
import { createLogger, hashToken, PRINCIPAL_HEADER, verifyPrincipal } from '@platform/kit';
import { createMemoryKeyValue } from '@platform/kv';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from './app';

const secret = randomBytes(32).toString('hex');
const kv = createMemoryKeyValue();

describe('proxy to a remote service', () => {
  let upstream: FastifyInstance;
  let gateway: Gateway;

  beforeAll(async () => {
    // Echoes what arrived, with the body as raw text, so the test sees exactly what was forwarded.
    upstream = Fastify();
    upstream.removeAllContentTypeParsers();
    upstream.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    upstream.get('/api/health', async () => ({ from: 'data process' }));
    upstream.all('/*', async (request) => ({
      method: request.method,
      url: request.url,
      body: request.body ?? null,
      contentType: request.headers['content-type'] ?? null,
      principal: verifyPrincipal(request.headers[PRINCIPAL_HEADER] as string | undefined, secret),
      requestId: request.headers['x-request-id'],
      forwardedFor: request.headers['x-forwarded-for'],
      forwardedHost: request.headers['x-forwarded-host'],
      forwardedProto: request.headers['x-forwarded-proto'],
      forwarded: request.headers.forwarded ?? null,
      realIp: request.headers['x-real-ip'] ?? null,
      authorization: request.headers.authorization ?? null,
      cookie: request.headers.cookie ?? null,
    }));
    const address = await upstream.listen({ host: '127.0.0.1', port: 0 });
    gateway = await buildGateway({
      logger: createLogger({ level: 'silent' }),
      kv,
      clock: Date.now,
      principalSecret: secret,
      sessionCookie: SESSION_COOKIE,
      local: undefined,
      remotes: new Map([['data', address]]),
      dependencyProbes: [],
    });
  });

  afterAll(async () => {
    await gateway.app.close();
    await upstream.close();
  });

  it("forwards path and query string as sent, with a signed principal, the gateway's request id and the client address", async () => {
    const headers = { 'x-request-id': 'trace-7', 'x-forwarded-for': '6.6.6.6', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'for=6.6.6.6;host=evil.example', 'x-real-ip': '6.6.6.6', host: 'platform.example' };
    const response = await gateway.app.inject({ method: 'GET', url: '/api/projects/p1/types/t1/data?b=2&a=%20x', headers, remoteAddress: '10.1.2.3' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      method: 'GET',
      url: '/api/projects/p1/types/t1/data?b=2&a=%20x',
      principal: { kind: 'anonymous' },
      forwardedFor: '10.1.2.3',
      // The gateway trusts no proxy here: the host and scheme it was reached by, not the client's headers.
      forwardedHost: 'platform.example',
      forwardedProto: 'http',
      forwarded: null,
      realIp: null,
    });
    expect(response.json().requestId).not.toBe('trace-7');
    expect(response.json().requestId).toBe(response.headers['x-request-id']);
  });

  it("forwards neither the Authorization header nor the session cookie, and keeps the client's other cookies", async () => {
    const headers = { authorization: 'Bearer secret-session-token', cookie: 'theme=dark; session=secret-session-token' };
    const response = await gateway.app.inject({ method: 'GET', url: '/api/projects/p1/types/t1/data', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ authorization: null, cookie: 'theme=dark' });
  });

  it('signs in the caller of a session cookie among other cookies, and forwards the others only', async () => {
    const token = randomBytes(32).toString('base64url');
    const session: SessionRecord = { id: 's-cookie', userId: 'user-7', createdAt: Date.now(), expiresAt: Date.now() + 60_000, platformOwner: false };
    await kv.set(sessionKey(hashToken(token)), JSON.stringify(session));
    const response = await gateway.app.inject({ method: 'GET', url: '/api/projects/p1/types/t1/data', headers: { cookie: `theme=dark; session=${token}; lang=fr` } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ principal: { kind: 'user', userId: 'user-7' }, cookie: 'theme=dark; lang=fr' });
  });

  it('forwards request bodies byte for byte instead of parsing them', async () => {
    const json = '{ "name" :  "kept as sent" }';
    const asJson = await gateway.app.inject({ method: 'POST', url: '/api/help/chat', headers: { 'content-type': 'application/json' }, payload: json });
    expect(asJson.json()).toMatchObject({ method: 'POST', body: json, contentType: 'application/json' });
    const asText = await gateway.app.inject({ method: 'PUT', url: '/api/schemas/x', headers: { 'content-type': 'text/csv' }, payload: 'a,b\n1,2' });
    expect(asText.json()).toMatchObject({ method: 'PUT', body: 'a,b\n1,2', contentType: 'text/csv' });
  });

  it("sends /api/health/{service} to the service's own /api/health", async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/health/data' });
    expect(response.json()).toEqual({ from: 'data process' });
  });

  it('refuses dot segments and leaves paths outside the table to the 404 handler', async () => {
    expect((await gateway.app.inject({ method: 'GET', url: '/api/help/..%2f..%2finternal' })).statusCode).toBe(400);
    expect((await gateway.app.inject({ method: 'GET', url: '/api/nowhere' })).statusCode).toBe(404);
    expect((await gateway.app.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(404);
  });
});

describe('proxy to a service that is down or restarting', () => {
  let upstream: FastifyInstance;
  let gateway: Gateway;

  beforeAll(async () => {
    // `data` drops the connection without answering (killed mid-request); `audit` listens nowhere.
    upstream = Fastify();
    upstream.all('/*', async (request) => {
      request.raw.socket.destroy();
    });
    const dropping = await upstream.listen({ host: '127.0.0.1', port: 0 });
    const closed = Fastify();
    const nowhere = await closed.listen({ host: '127.0.0.1', port: 0 });
    await closed.close();
    gateway = await buildGateway({
      logger: createLogger({ level: 'silent' }),
      kv,
      clock: Date.now,
      principalSecret: secret,
      sessionCookie: SESSION_COOKIE,
      local: undefined,
      remotes: new Map([
        ['data', dropping],
        ['audit', nowhere],
      ]),
      dependencyProbes: [],
    });
  });

  afterAll(async () => {
    await gateway.app.close();
    await upstream.close();
  });

  it.each([
    ['refuses connections', 'GET', '/api/projects/p1/audit-trail', 'audit'],
    ['drops the connection mid-request', 'POST', '/api/projects/p1/types/t1/data', 'data'],
  ])('answers 503 GATEWAY_SERVICE_UNAVAILABLE when the service %s', async (_, method, url, service) => {
    const response = await gateway.app.inject({ method: method as 'GET' | 'POST', url, ...(method === 'POST' ? { payload: { id: 'd1' } } : {}) });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ code: 'GATEWAY_SERVICE_UNAVAILABLE', error: `The ${service} service cannot be reached right now; try again shortly` });
  });
});
