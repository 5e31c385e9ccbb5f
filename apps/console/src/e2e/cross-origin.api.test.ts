import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, RUN_ID, startConsolePlatform, type ConsolePlatform } from './console-platform';

/** A page server of its own: an application on another origin, as a developer's Vite server or a product's site is. */
async function startPageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Another origin</title><p>an application</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let allowed: { server: Server; origin: string };
let stranger: { server: Server; origin: string };
let platform: ConsolePlatform;
let token: string;
let projectId: string;

beforeAll(async () => {
  allowed = await startPageServer();
  stranger = await startPageServer();
  platform = await startConsolePlatform({ allInOne: { env: { CORS_ORIGINS: allowed.origin } } });
  const registered = await platform.call('POST', '/api/auth/register', { body: { email: `cors-${RUN_ID}@example.org`, password: PASSWORD, displayName: 'Cross Origin' } });
  token = registered.body.token;
  projectId = (await platform.call('POST', '/api/projects', { token, body: { name: 'Cross origin' } })).body.id;
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'notes', name: 'Notes' } })).status).toBe(201);
  expect((await platform.call('POST', `/api/projects/${projectId}/types/notes/data`, { token, body: { id: 'n1', title: 'first' } })).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await platform?.close();
  allowed?.server.close();
  stranger?.server.close();
});

/** What a page's script gets from the API: a preflighted PATCH with a bearer token, the request id it may read, and the first event of the realtime stream. */
async function callFromPage(origin: string, baseRevision: number): Promise<{ status?: number; title?: string; requestId?: string | null; firstEvent?: string; failure?: string }> {
  const page = await platform.browser.newPage();
  platform.pages.push(page);
  await page.goto(`${origin}/`);
  return page.evaluate(
    async ({ api, token, projectId, baseRevision }) => {
      try {
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const patched = await fetch(`${api}/api/projects/${projectId}/types/notes/data/n1`, { method: 'PATCH', headers, body: JSON.stringify({ modifier: { $set: { title: 'from the page' } }, baseRevision }) });
        const document = (await patched.json()) as { title: string };
        const realtime = (await (await fetch(`${api}/api/realtime/token`, { headers: { authorization: `Bearer ${token}` } })).json()) as { token: string };
        const abort = new AbortController();
        const stream = await fetch(`${api}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(realtime.token)}`, { signal: abort.signal });
        const firstEvent = new TextDecoder().decode((await stream.body!.getReader().read()).value);
        abort.abort();
        return { status: patched.status, title: document.title, requestId: patched.headers.get('x-request-id'), firstEvent };
      } catch (error) {
        return { failure: String(error) };
      }
    },
    { api: platform.url, token, projectId, baseRevision },
  );
}

describe('a browser application on another origin', () => {
  it('on an origin CORS_ORIGINS lists: writes with its bearer token, reads the request id, and opens the realtime stream', async () => {
    const result = await callFromPage(allowed.origin, 0);
    expect(result.failure).toBeUndefined();
    expect(result).toMatchObject({ status: 200, title: 'from the page' });
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.firstEvent).toContain('event: ready');
  }, 30_000);

  it('on an origin not listed: the browser refuses the answer, and nothing is written', async () => {
    const before = (await platform.call('GET', `/api/projects/${projectId}/types/notes/data/n1`, { token })).body;
    // On the current revision: sent, it would be written.
    const result = await callFromPage(stranger.origin, before.revision);
    expect(result.failure).toBe('TypeError: Failed to fetch');
    // The preflight failed, so the PATCH itself was never sent.
    expect((await platform.call('GET', `/api/projects/${projectId}/types/notes/data/n1`, { token })).body).toEqual(before);
  }, 30_000);
});
