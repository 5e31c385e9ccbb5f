import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

/**
 * The access line's URL keeps its query for the operator, but never a credential: not only under
 * the names credentials go by (`token`, `access_token`, ...), also a session or an access token a
 * program put in a parameter of another name, which the route refuses after the URL was logged.
 */
let dataDir: string;
let platform: RunningPlatform;
let lines = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'access-log-credentials-'));
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void (lines += line) } });
  platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir }), { logger });
});

afterAll(async () => {
  await platform?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}

describe('the access log', () => {
  it('writes no session or access token a caller sent in a query parameter of any name', async () => {
    const session = (await call('POST', '/api/auth/register', undefined, { email: `logged-${Date.now()}@example.org`, password: 'logged password 1' })).body.token as string;
    const created = await call('POST', '/api/me/tokens', session, { name: 'program' });
    expect(created.status).toBe(201);
    const accessToken = created.body.token as string;
    expect(accessToken.startsWith('pat_')).toBe(true);

    // Parameters the routes do not take (most routes refuse them): each request's URL is logged all the same.
    expect((await call('GET', `/api/me?key=${accessToken}`)).status).toBe(401);
    await call('GET', `/api/projects?session=${session}&limit=5`, session);
    await call('GET', `/api/me?auth=${encodeURIComponent(accessToken)}&x=plain`, session);

    const accessLines = () => lines.split('\n').filter((line) => line.includes('"msg":"request"'));
    await expect.poll(() => accessLines().filter((line) => line.includes('[redacted]')).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(lines).not.toContain(accessToken);
    expect(lines).not.toContain(accessToken.slice(4));
    expect(lines).not.toContain(session);
    // What is not a credential stays, for the operator.
    expect(accessLines().some((line) => line.includes('"url":"/api/projects?session=[redacted]&limit=5"'))).toBe(true);
    expect(accessLines().some((line) => line.includes('"url":"/api/me?auth=[redacted]&x=plain"'))).toBe(true);
  });
});
