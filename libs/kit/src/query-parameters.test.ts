import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createApp } from './app';
import { createLogger } from './logger';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createApp({ logger: createLogger({ level: 'silent' }), title: 'service', openapi: false });
  app.get('/items', { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).default(10), since: z.coerce.number().optional() }) } }, async (request) => ({ query: request.query }));
  // Declared in a plugin, as every service's routes are.
  await app.register(async (scope) => {
    scope.get('/scoped', { schema: { querystring: z.object({ page: z.coerce.number().default(1) }) } }, async (request) => ({ query: request.query }));
  });
  app.get('/plain', async (request) => ({ query: request.query }));
});

afterAll(async () => {
  await app.close();
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('query parameters a route does not declare', () => {
  it('are refused with 400, each by name, saying which the route takes', async () => {
    const answer = await get('/items?limit=5&Since=3&filter=x');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      error: 'Invalid querystring.Since: unknown query parameter (this route takes limit, since)',
      code: 'VALIDATION_FAILED',
      details: {
        issues: [
          { field: 'querystring.Since', message: 'unknown query parameter (this route takes limit, since)' },
          { field: 'querystring.filter', message: 'unknown query parameter (this route takes limit, since)' },
        ],
      },
    });
  });

  it('are refused on routes of a plugin too', async () => {
    const answer = await get('/scoped?pageSize=2');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ details: { issues: [{ field: 'querystring.pageSize', message: 'unknown query parameter (this route takes page)' }] } });
  });

  it('leave the declared ones working as before', async () => {
    expect((await get('/items?limit=5&since=3')).json()).toEqual({ query: { limit: 5, since: 3 } });
    expect((await get('/items')).json()).toEqual({ query: { limit: 10 } });
    expect((await get('/items?limit=0')).json()).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'querystring.limit' }] } });
  });

  it('are ignored by a route that declares no query parameters', async () => {
    const answer = await get('/plain?anything=1');
    expect(answer.statusCode).toBe(200);
  });
});
