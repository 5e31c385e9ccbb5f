import type { ServiceDefinition } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing';

/** Echoes what reached the service: the parsed body and the headers a service could read. */
const echoService: ServiceDefinition = {
  name: 'data',
  routes: async (app) => {
    app.post('/api/help/echo', async (request) => ({ body: request.body }));
    app.get('/api/help/echo', async (request) => ({
      principal: request.principal,
      authorization: request.headers.authorization ?? null,
      cookieHeader: request.headers.cookie ?? null,
      cookies: request.cookies ?? null,
      requestId: request.id,
      requestIdHeader: request.headers['x-request-id'] ?? null,
    }));
  },
};

let platform: TestGateway;

beforeAll(async () => {
  platform = await startTestGateway({ services: [echoService] });
});

afterAll(async () => {
  await platform?.close();
});

async function postRaw(path: string, text: string) {
  const response = await fetch(`${platform.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  return { status: response.status, body: (await response.json()) as any };
}

describe('JSON bodies through the gateway', () => {
  it('refuses a body nested 6,000 levels deep with 400 naming the body, anonymously', async () => {
    const response = await postRaw('/api/help/echo', `${'['.repeat(6_000)}${']'.repeat(6_000)}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'JSON_TOO_DEEP', details: { issues: [{ field: 'body' }] } });
  });

  it('refuses a number that does not fit a double with 400 naming its field, instead of storing null', async () => {
    const response = await postRaw('/api/help/echo', '{"items":[{"price":1},{"price":1e309}]}');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'JSON_NUMBER_OUT_OF_RANGE', details: { issues: [{ field: 'body.items.1.price' }] } });
  });

  it('says which fault a refused body has: a __proto__ key, or where its syntax breaks', async () => {
    const poisoned = await postRaw('/api/help/echo', '{"modifier":{"$set":{"__proto__":{"admin":true}}},"baseRevision":0}');
    expect(poisoned.status).toBe(400);
    expect(poisoned.body).toMatchObject({ code: 'JSON_FORBIDDEN_KEY', details: { issues: [{ field: 'body' }] } });
    const malformed = await postRaw('/api/help/echo', '{"title":"a",}');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('JSON_MALFORMED');
    expect(malformed.body.error).toMatch(/position 13/);
  });

  it('still accepts ordinary bodies, 64 levels deep included', async () => {
    // With the outer object, 64 levels.
    const deep = JSON.parse(`${'['.repeat(63)}1.5e308${']'.repeat(63)}`);
    const response = await platform.call('POST', '/api/help/echo', { body: { deep } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ body: { deep } });
  });
});

describe('what reaches a service in-process', () => {
  it('carries the caller as the principal, without the Authorization header or the session cookie', async () => {
    const token = await platform.signIn('user-1');
    const asBearer: Record<string, string> = { authorization: `Bearer ${token}`, cookie: 'theme=dark' };
    for (const headers of [asBearer, { cookie: `theme=dark; session=${token}; lang=en` }]) {
      const response = await platform.call('GET', '/api/help/echo', { headers });
      expect(response.status).toBe(200);
      expect(response.body.principal).toMatchObject({ kind: 'user', userId: 'user-1' });
      expect(response.body.authorization).toBeNull();
      expect(response.body.cookieHeader).not.toContain(token);
      expect(response.body.cookies).not.toHaveProperty('session');
      expect(response.body.cookies).toMatchObject({ theme: 'dark' });
    }
  });

  it("gives each request the gateway's own id, not the one the client chose", async () => {
    const response = await platform.call('GET', '/api/help/echo', { headers: { 'x-request-id': 'client-chosen-42' } });
    expect(response.body.requestId).not.toBe('client-chosen-42');
    expect(response.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-request-id')).toBe(response.body.requestId);
  });
});
