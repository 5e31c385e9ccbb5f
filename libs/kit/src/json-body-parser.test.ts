import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApp } from './app';
import { createLogger } from './logger';

/** A service app as a process without the gateway builds it: the limits must hold there too. */
let app: FastifyInstance;

beforeAll(async () => {
  app = await createApp({ logger: createLogger({ level: 'silent' }), title: 'service', openapi: false });
  app.post('/echo', async (request) => ({ body: request.body }));
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

  it('keeps the default parser behaviour: prototype poisoning, malformed and empty bodies refused', async () => {
    expect((await post('{"__proto__":{"admin":true}}')).statusCode).toBe(400);
    expect((await post('{"a":')).json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    expect((await post('')).statusCode).toBe(400);
    expect((await post('{"a":[1,2,{"b":"[["}]}')).json()).toEqual({ body: { a: [1, 2, { b: '[[' }] } });
  });
});
