import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createApp } from './app';
import { createLogger } from './logger';

/** A service app as a process without the gateway builds it: the limits must hold there too. */
let app: FastifyInstance;

beforeAll(async () => {
  app = await createApp({ logger: createLogger({ level: 'silent' }), title: 'service', openapi: false });
  app.post('/echo', async (request) => ({ body: request.body ?? 'none' }));
  app.post('/needs-body', { schema: { body: z.object({ name: z.string() }) } }, async (request) => request.body);
});

afterAll(async () => {
  await app.close();
});

const post = (payload: string, contentType = 'application/json') => app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': contentType }, payload });

describe("the app factory's JSON parser", () => {
  it('refuses deep nesting and out-of-range numbers with 400, charset parameter or not', async () => {
    const deep = await post(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'JSON_TOO_DEEP' });
    const huge = await post('{"n":-1e400}', 'application/json; charset=utf-8');
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toMatchObject({ code: 'JSON_NUMBER_OUT_OF_RANGE', details: { issues: [{ field: 'body.n' }] } });
  });

  it('refuses prototype poisoning and malformed bodies with 400, saying which it is', async () => {
    for (const poisoned of ['{"__proto__":{"admin":true}}', '{"a":{"constructor":{"prototype":{"admin":true}}}}']) {
      const refused = await post(poisoned);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'JSON_FORBIDDEN_KEY', details: { issues: [{ field: 'body' }] } });
    }
    const cutShort = await post('{"a":');
    expect(cutShort.statusCode).toBe(400);
    expect(cutShort.json()).toMatchObject({ code: 'JSON_MALFORMED', error: 'Invalid body: not valid JSON: Unexpected end of JSON input' });
    // JSON.parse's message, with where the text went wrong.
    expect((await post('{"a":1,}')).json().error).toMatch(/^Invalid body: not valid JSON: .*position 7/);
    const outOfRangeAndMalformed = await post('{"n":1e400,');
    expect(outOfRangeAndMalformed.json()).toMatchObject({ code: 'JSON_MALFORMED' });
    expect((await post('{"constructor":{"name":"kept"}}')).json()).toEqual({ body: { constructor: { name: 'kept' } } });
    expect((await post('{"a":[1,2,{"b":"[["}]}')).json()).toEqual({ body: { a: [1, 2, { b: '[[' }] } });
  });

  it('takes an empty body with the JSON content type as no body: accepted where none is needed, a validation failure where one is', async () => {
    const none = await post('');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ body: 'none' });
    const needed = await app.inject({ method: 'POST', url: '/needs-body', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(needed.statusCode).toBe(400);
    expect(needed.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'body' }] } });
  });
});
