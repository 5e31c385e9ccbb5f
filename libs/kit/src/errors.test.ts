import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { StoreUnavailableError } from '@platform/storage';
import { z } from 'zod';
import { createApp } from './app';
import { AppError, errorCatalogue } from './errors';
import { createLogger } from './logger';

const catalogue = errorCatalogue({ TEST_CONFLICT: [409, 'Conflict happened'], TEST_BROKEN: [500, 'database password is hunter2'], TEST_NOT_SET_UP: [501, 'Mail is not set up here'], TEST_UPSTREAM: [502, 'The mail server failed; try again later'] });

describe('shared error handling', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await createApp({ logger: createLogger({ level: 'silent' }), title: 'test', bodyLimit: 2048 });
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.post('/items', { schema: { body: z.object({ name: z.string().min(2), count: z.number().int() }) } }, async (request) => request.body);
    typed.get('/conflict', async () => {
      throw catalogue('TEST_CONFLICT', { details: { revision: 3 } });
    });
    typed.get('/broken', async () => {
      throw catalogue('TEST_BROKEN');
    });
    typed.get('/not-set-up', async () => {
      throw catalogue('TEST_NOT_SET_UP');
    });
    typed.get('/upstream', async () => {
      throw catalogue('TEST_UPSTREAM', { message: 'SMTP 535 auth failed for relay.internal:587', details: { host: 'relay.internal' } });
    });
    typed.get('/crash', async () => {
      throw new Error('secret internals');
    });
    typed.get('/store-down', async () => {
      throw new StoreUnavailableError('documents', new Error('connect ECONNREFUSED 10.0.0.7:27017'));
    });
    typed.get('/things/:id', async (request) => request.params);
    // Routes of a plugin, as every service's are.
    await app.register(async (scope) => {
      scope.get('/scoped/items', async () => []);
      scope.post('/scoped/items', async () => ({}));
      scope.get('/scoped/missing.js', (_request, reply) => reply.callNotFound());
    });
    typed.get('/bad-response', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: 'yes' }) as never);
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers an AppError with its status, code, message and details', async () => {
    const response = await app.inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'Conflict happened', code: 'TEST_CONFLICT', details: { revision: 3 } });
  });

  it('names the failing field of a bad body with 400', async () => {
    const response = await app.inject({ method: 'POST', url: '/items', payload: { name: 'ok', count: 1.5 } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.error).toContain('body.count');
  });

  it('answers malformed JSON and oversized bodies with 4xx JSON', async () => {
    const malformed = await app.inject({ method: 'POST', url: '/items', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBeTruthy();
    const large = await app.inject({ method: 'POST', url: '/items', payload: { name: 'x'.repeat(4096), count: 1 } });
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ error: 'The body is larger than the 2048 bytes this route takes', code: 'BODY_TOO_LARGE', details: { limitBytes: 2048 } });
  });

  it('says a body in another format than JSON is not taken, and which content type to send', async () => {
    const form = await app.inject({ method: 'POST', url: '/items', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=a&count=1' });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toEqual({ error: 'Bodies are JSON: send Content-Type: application/json (this request sent application/x-www-form-urlencoded)', code: 'UNSUPPORTED_MEDIA_TYPE' });
    const text = await app.inject({ method: 'POST', url: '/items', headers: { 'content-type': 'text/plain' }, payload: '{"name":"a","count":1}' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ error: 'Bodies are JSON: send Content-Type: application/json (this request sent text/plain)', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('hides the message of every 5xx', async () => {
    for (const url of ['/broken', '/crash', '/bad-response']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Internal server error', code: expect.any(String) });
      expect(response.body).not.toMatch(/hunter2|secret internals/);
    }
  });

  it("says a 502's catalogue words, never the message or details given where it was thrown (they may quote the upstream)", async () => {
    const response = await app.inject({ method: 'GET', url: '/upstream' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ error: 'The mail server failed; try again later', code: 'TEST_UPSTREAM' });
  });

  it('says the message of a 501 from the catalogue: how the platform is set up, not its internals', async () => {
    const response = await app.inject({ method: 'GET', url: '/not-set-up' });
    expect(response.statusCode).toBe(501);
    expect(response.json()).toEqual({ error: 'Mail is not set up here', code: 'TEST_NOT_SET_UP' });
  });

  it('answers 503 STORE_UNAVAILABLE when the store cannot be reached, without the cause', async () => {
    const response = await app.inject({ method: 'GET', url: '/store-down' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'The database cannot be reached right now; try again shortly', code: 'STORE_UNAVAILABLE' });
  });

  it('answers unknown routes with 404 JSON', async () => {
    const response = await app.inject({ method: 'GET', url: '/nowhere?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Route GET /nowhere not found', code: 'NOT_FOUND' });
  });

  it('answers 405 with Allow for a path whose routes take other methods, naming them, and 404 for a path no route takes', async () => {
    const put = await app.inject({ method: 'PUT', url: '/things/42/?x=1' });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET');
    expect(put.json()).toEqual({ error: '/things/42/ does not take PUT: it takes GET', code: 'METHOD_NOT_ALLOWED', details: { allowed: ['GET'] } });
    const scoped = await app.inject({ method: 'DELETE', url: '/scoped/items' });
    expect(scoped.statusCode).toBe(405);
    expect(scoped.headers.allow).toBe('GET, POST');
    expect((await app.inject({ method: 'PUT', url: '/things/42/more' })).statusCode).toBe(404);
    // A route that took the request and found nothing (a missing static file) stays 404, for HEAD too.
    for (const method of ['GET', 'HEAD'] as const) expect((await app.inject({ method, url: '/scoped/missing.js' })).statusCode).toBe(404);
  });

  it("answers the router's own refusals with the shared error body", async () => {
    const long = await app.inject({ method: 'GET', url: `/things/${'x'.repeat(255)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: 'A path parameter is too long', code: 'PATH_PARAMETER_TOO_LONG' });
    const malformed = await app.inject({ method: 'GET', url: '/things/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Malformed URL', code: 'BAD_URL' });
  });

  it('documents the shared error body as the default response of every route with responses', () => {
    const document = app.swagger() as unknown as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
    const responses = document.paths['/bad-response']!.get!.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', 'default']);
    expect(responses.default!.content!['application/json']!.schema).toMatchObject({ type: 'object', required: ['error', 'code'] });
  });

  it("answers what Node's HTTP parser refuses with the shared error body", async () => {
    const server = await createApp({ logger: createLogger({ level: 'silent' }), title: 'test', openapi: false });
    await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = server.server.address() as { port: number };
      const raw = (request: string) =>
        new Promise<string>((done, fail) => {
          let answer = '';
          const socket = connect(port, '127.0.0.1', () => socket.write(request));
          socket.on('data', (chunk) => (answer += chunk.toString()));
          socket.on('close', () => done(answer));
          socket.on('error', fail);
        });
      const oversized = await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(oversized).toMatch(/^HTTP\/1.1 431 /);
      expect(JSON.parse(oversized.split('\r\n\r\n')[1]!)).toEqual({ error: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' });
      const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1.1 400 /);
      expect(JSON.parse(garbage.split('\r\n\r\n')[1]!)).toEqual({ error: 'Malformed HTTP request', code: 'BAD_REQUEST' });
    } finally {
      await server.close();
    }
  });

  it('keeps a valid incoming request id and replaces an unsafe one', async () => {
    const kept = await app.inject({ method: 'GET', url: '/conflict', headers: { 'x-request-id': 'req-123' } });
    expect(kept.headers['x-request-id']).toBe('req-123');
    const replaced = await app.inject({ method: 'GET', url: '/conflict', headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names the request id on every answer: thrown errors, unknown routes, refused bodies and the router\'s own refusals', async () => {
    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/crash', headers: { 'x-request-id': 'crash-1' } }),
      app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'missing-1' } }),
      app.inject({ method: 'POST', url: '/items', payload: { name: 'x'.repeat(4096), count: 1 }, headers: { 'x-request-id': 'large-1' } }),
      app.inject({ method: 'GET', url: '/things/%E0%A4%A', headers: { 'x-request-id': 'url-1' } }),
    ]);
    expect(answers.map((answer) => [answer.statusCode, answer.headers['x-request-id']])).toEqual([
      [500, 'crash-1'],
      [404, 'missing-1'],
      [413, 'large-1'],
      [400, 'url-1'],
    ]);
  });

  it('AppError carries what the handler needs', () => {
    const error = new AppError(418, 'TEST_TEAPOT', 'short and stout');
    expect([error.statusCode, error.code, error.message]).toEqual([418, 'TEST_TEAPOT', 'short and stout']);
  });
});
