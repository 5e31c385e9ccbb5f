import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionKey, type SessionRecord } from '@platform/contracts';
import { hashToken } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

describe('the all-in-one shape on embedded storage', () => {
  let dataDir: string;
  let platform: RunningPlatform;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'all-in-one-'));
    platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  });

  afterAll(async () => {
    await platform?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers GET /api/health 200 without a session, every service in-process on embedded backends', async () => {
    const anonymous = await fetch(`${platform.url}/api/health`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ status: 'ok' });
    // The detail is for platform owners: a session written as identity writes one.
    const token = randomBytes(32).toString('base64url');
    const owner: SessionRecord = { id: 'owner-session', userId: 'owner', createdAt: Date.now(), expiresAt: Date.now() + 60_000, platformOwner: true };
    await platform.context!.kv.set(sessionKey(hashToken(token)), JSON.stringify(owner));
    const response = await fetch(`${platform.url}/api/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { services: Record<string, unknown> };
    expect(body).toMatchObject({
      status: 'ok',
      shape: 'all-in-one',
      dependencies: { store: { up: true, kind: 'embedded' }, bus: { up: true, kind: 'in-process' }, kv: { up: true, kind: 'embedded' } },
      // Access changes are announced: they hold at once, the expiry is only the fallback.
      accessRevocation: { by: 'notices', expiryMs: 1_000 },
    });
    expect(Object.keys(body.services).sort()).toEqual(['actions', 'audit', 'data', 'identity', 'publishing', 'visitors']);
  });

  it('answers a guarded route with 401 JSON without a session', async () => {
    const response = await fetch(`${platform.url}/api/me`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ error: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('answers unknown paths with 404 JSON', async () => {
    const response = await fetch(`${platform.url}/api/does-not-exist`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('serves the OpenAPI document and the Swagger UI', async () => {
    const document = (await (await fetch(`${platform.url}/api/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/me']));
    const ui = await fetch(`${platform.url}/api/docs/`);
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('platform configuration', () => {
  it('defaults to the all-in-one shape in development mode', () => {
    const config = loadPlatformConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./.data');
    expect(config.dev).toBe(true);
    expect([...config.services]).toEqual(['gateway', 'identity', 'data', 'audit', 'publishing', 'actions', 'visitors']);
  });

  it('names a bad value', () => {
    expect(() => loadPlatformConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadPlatformConfig({ SERVICES: 'gateway,billing' })).toThrow(/SERVICES/);
    expect(() => loadPlatformConfig({ MONGO_URL: 'not a url' })).toThrow(/MONGO_URL/);
  });

  it('requires a principal secret in production', () => {
    expect(() => loadPlatformConfig({ NODE_ENV: 'production' })).toThrow(/PRINCIPAL_SECRET/);
    expect(loadPlatformConfig({ NODE_ENV: 'production', PRINCIPAL_SECRET: 'x'.repeat(32) }).dev).toBe(false);
  });

  it('refuses a gateway that does not know where its services are', async () => {
    const config = loadPlatformConfig({ SERVICES: 'gateway', DATA_URL: 'http://127.0.0.1:1', LOG_LEVEL: 'silent', PRINCIPAL_SECRET: 'x'.repeat(32) });
    await expect(startPlatform(config)).rejects.toThrow(/IDENTITY_URL: required when SERVICES does not include identity/);
  });
});
