import type { ServiceDefinition } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing';

/** Echoes what reached the service: the parsed body and the headers a service could read. */
const echoService: ServiceDefinition = {
  name: 'data',
  routes: async (app) => {
    app.post('/api/help/echo', async (request) => ({ body: request.body }));
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

  it('still accepts ordinary bodies, 64 levels deep included', async () => {
    // With the outer object, 64 levels.
    const deep = JSON.parse(`${'['.repeat(63)}1.5e308${']'.repeat(63)}`);
    const response = await platform.call('POST', '/api/help/echo', { body: { deep } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ body: { deep } });
  });
});
