import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing';

/** A console build as Vite lays it out: index.html naming hashed assets, plus a plain file. */
const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/console/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>';

let root: string;
let platform: TestGateway;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'console-build-'));
  await mkdir(join(root, 'assets'));
  await writeFile(join(root, 'index.html'), INDEX_HTML);
  await writeFile(join(root, 'assets', 'index-AbC123.js'), 'console.log("console")');
  await writeFile(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  platform = await startTestGateway({ services: [], consoleRoot: root });
});

afterAll(async () => {
  await platform?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the console at /console', () => {
  it('answers index.html, never cached, under a policy that lets its own scripts run', async () => {
    const response = await fetch(`${platform.url}/console/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(await response.text()).toBe(INDEX_HTML);
  });

  it('redirects /console to /console/', async () => {
    const response = await fetch(`${platform.url}/console`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/console/');
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await fetch(`${platform.url}/console/assets/index-AbC123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('javascript');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe('console.log("console")');
  });

  it('answers a path out of the build 404 alike whether the file outside exists or not', async () => {
    const outside = join(root, '..', `${root.split('/').at(-1)}-outside.conf`);
    await writeFile(outside, 'secret');
    try {
      const name = outside.split('/').at(-1) as string;
      for (const path of [`/console/..%2F${name}`, `/console/..%2F${name}-missing.conf`, `/console/assets/..%2F..%2F${name}`]) {
        const response = await fetch(`${platform.url}${path}`);
        expect({ path, status: response.status, body: await response.json() }).toEqual({ path, status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } });
      }
    } finally {
      await rm(outside, { force: true });
    }
  });

  it('answers a missing asset 404 rather than the page', async () => {
    const response = await fetch(`${platform.url}/console/assets/gone-123.js`);
    expect(response.status).toBe(404);
  });

  it('serves other files of the build uncached', async () => {
    const response = await fetch(`${platform.url}/console/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it.each(['/console/projects', '/console/projects/p1/types/tasks/documents/d1'])('falls back to index.html for the app route %s', async (path) => {
    const response = await fetch(`${platform.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX_HTML);
  });

  it('answers the kiosk pages with index.html, uncached, under the console policy, without a session', async () => {
    const response = await fetch(`${platform.url}/kiosk/p1/reception`, { headers: { cookie: 'session=not-a-session' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await response.text()).toBe(INDEX_HTML);
  });

  it('does not leave the build directory', async () => {
    const response = await fetch(`${platform.url}/console/assets/..%2f..%2f..%2fetc%2fpasswd`);
    expect([403, 404]).toContain(response.status);
    expect(await response.text()).not.toContain('root:');
  });

  it('loads without a session even when the presented token is unknown', async () => {
    const response = await fetch(`${platform.url}/console/`, { headers: { cookie: 'session=not-a-session' } });
    expect(response.status).toBe(200);
  });

  it('keeps the API under its own policy', async () => {
    const response = await fetch(`${platform.url}/api/health`);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});
