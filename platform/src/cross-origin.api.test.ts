import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@platform/kit';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { httpCaller, registerAccount } from './testing/platform-http';
import { sharedBackendsEnvironment } from './testing/shared-backends';

const ALLOWED = 'https://app.example.org';
const STRANGER = 'https://elsewhere.example.net';

/** A preflight as a browser sends it before a PATCH with a bearer token and a JSON body. */
function preflight(url: string, origin: string): Promise<Response> {
  return fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' } });
}

/** The same checks through the front door of each shape: the gateway answers CORS for its own routes, in-process services and proxied ones. */
function crossOriginSuite(start: (env: Record<string, string>) => Promise<{ url: string; close(): Promise<void> }>): void {
  let allowing: { url: string; close(): Promise<void> };
  let sameOriginOnly: { url: string; close(): Promise<void> };
  let token: string;
  let projectId: string;
  const call = httpCaller(() => allowing.url);

  beforeAll(async () => {
    allowing = await start({ CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` });
    sameOriginOnly = await start({});
    token = (await registerAccount(call, 'cors')).token;
    projectId = (await call('POST', '/api/projects', token, { name: 'cross-origin' })).body.id;
    expect((await call('POST', `/api/projects/${projectId}/types`, token, { id: 'notes', name: 'Notes' })).status).toBe(201);
    expect((await call('POST', `/api/projects/${projectId}/types/notes/data`, token, { id: 'n1', title: 'a' })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await allowing?.close();
    await sameOriginOnly?.close();
  });

  it('answers a listed origin\'s preflight with 204: its origin, the methods, the bearer and JSON headers, ten minutes, no credentials', async () => {
    const answer = await preflight(`${allowing.url}/api/projects/${projectId}/types/notes/data/n1`, ALLOWED);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(answer.headers.get('access-control-allow-headers')?.split(', ')).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(answer.headers.get('vary')).toContain('Origin');
  });

  it('marks the answers a listed origin reads: a write, a 401 and a 404 alike, with the request id readable', async () => {
    const headers = { origin: ALLOWED, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const patched = await fetch(`${allowing.url}/api/projects/${projectId}/types/notes/data/n1`, { method: 'PATCH', headers, body: JSON.stringify({ modifier: { $set: { title: 'b' } }, baseRevision: 0 }) });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(patched.headers.get('access-control-expose-headers')).toBe('x-request-id, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset');
    const anonymous = await fetch(`${allowing.url}/api/me`, { headers: { origin: ALLOWED } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const missing = await fetch(`${allowing.url}/api/projects/${projectId}/types/notes/data/none`, { headers: { origin: ALLOWED, authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(await fetch(`${allowing.url}/api/health`, { headers: { origin: 'http://localhost:5173' } }).then((answer) => answer.headers.get('access-control-allow-origin'))).toBe('http://localhost:5173');
  });

  it('carries the origin on the realtime stream, which writes its own head', async () => {
    const realtime = await call('GET', '/api/realtime/token', token);
    expect(realtime.status).toBe(200);
    const abort = new AbortController();
    const stream = await fetch(`${allowing.url}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(realtime.body.token)}`, { headers: { origin: ALLOWED }, signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(stream.headers.get('access-control-expose-headers')).toBe('x-request-id, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset');
    abort.abort();
  });

  it('gives an origin not listed nothing to read its answers with, and changes nothing for it', async () => {
    const refused = await preflight(`${allowing.url}/api/projects/${projectId}/types/notes/data/n1`, STRANGER);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${allowing.url}/api/projects/${projectId}/types/notes/data/n1`, { headers: { origin: STRANGER, authorization: `Bearer ${token}` } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('without CORS_ORIGINS answers no origin: same-origin only, as before', async () => {
    const answer = await preflight(`${sameOriginOnly.url}/api/health`, ALLOWED);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${sameOriginOnly.url}/api/health`, { headers: { origin: ALLOWED } });
    expect(read.status).toBe(200);
    const names: string[] = [];
    read.headers.forEach((_value, name) => names.push(name));
    expect(names.filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(names).toContain('x-request-id');
  });
}

describe('CORS_ORIGINS', () => {
  it('takes origins and *, and refuses anything else naming the value', () => {
    expect(loadPlatformConfig({}).CORS_ORIGINS).toEqual([]);
    expect(loadPlatformConfig({ CORS_ORIGINS: 'https://app.example.org, http://localhost:5173' }).CORS_ORIGINS).toEqual(['https://app.example.org', 'http://localhost:5173']);
    expect(loadPlatformConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
    for (const value of ['https://app.example.org/', 'https://app.example.org/path', 'app.example.org', 'https://APP.example.org']) {
      expect(() => loadPlatformConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadPlatformConfig({ CORS_ORIGINS: value })).toThrow(`CORS_ORIGINS`);
      expect(() => loadPlatformConfig({ CORS_ORIGINS: value })).toThrow(`${value} is not an origin`);
    }
  });
});

describe('cross-origin browser applications, all-in-one', () => {
  crossOriginSuite(async (env) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cross-origin-'));
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }));
    return {
      url: platform.url,
      close: async () => {
        await platform.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
});

describeWithBackends(['mongo', 'nats', 'redis'], 'cross-origin browser applications, a gateway process in front of a services process', (backends) => {
  crossOriginSuite(async (env) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cross-origin-proxied-'));
    const shared = { PORT: '0', LOG_LEVEL: 'silent', ...sharedBackendsEnvironment(backends, `cors_${randomBytes(4).toString('hex')}`), PRINCIPAL_SECRET: randomBytes(32).toString('hex') };
    const services: RunningPlatform = await startPlatform(loadPlatformConfig({ ...shared, SERVICES: 'identity,data,audit,publishing,actions,visitors', DATA_DIR: join(dataDir, 'services') }));
    const urls = Object.fromEntries(['IDENTITY_URL', 'DATA_URL', 'AUDIT_URL', 'PUBLISHING_URL', 'ACTIONS_URL', 'VISITORS_URL'].map((name) => [name, services.url]));
    const gateway = await startPlatform(loadPlatformConfig({ ...shared, ...urls, ...env, SERVICES: 'gateway', DATA_DIR: join(dataDir, 'gateway') }));
    return {
      url: gateway.url,
      close: async () => {
        await gateway.close();
        await services.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
});
