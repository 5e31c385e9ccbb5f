import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signPrincipal } from '@platform/kit';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { PRINCIPAL_SECRET_FILE } from './principal-secret';
import { httpCaller, type HttpCall } from './testing/platform-http';

/** The constant every development installation used to sign with, and how realtime tokens derived their key from it. */
const FORMER_DEVELOPMENT_SECRET = 'development-only-principal-secret-change-me';
const FORMER_REALTIME_KEY = `${FORMER_DEVELOPMENT_SECRET}:realtime-token`;

const call = (platform: RunningPlatform, ...request: Parameters<HttpCall>) => httpCaller(() => platform.url)(...request);

/** A user with a project of its own: answers its session token and the project id. */
async function ownerWithProject(platform: RunningPlatform, name: string): Promise<{ session: string; projectId: string }> {
  const registered = await call(platform, 'POST', '/api/auth/register', undefined, { email: `${name}-${Date.now()}@example.org`, password: `${name} password 1` });
  expect(registered.status).toBe(201);
  const project = await call(platform, 'POST', '/api/projects', registered.body.token, { name: `${name}'s project` });
  expect(project.status).toBe(201);
  return { session: registered.body.token, projectId: project.body.id };
}

/** The status a stream open answers; an opened stream is closed at once. */
async function streamStatus(platform: RunningPlatform, projectId: string, token: string): Promise<number> {
  const abort = new AbortController();
  const response = await fetch(`${platform.url}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(token)}`, { signal: abort.signal });
  abort.abort();
  return response.status;
}

describe('a development all-in-one without PRINCIPAL_SECRET', () => {
  let dataDir: string;
  let platform: RunningPlatform;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'development-secret-'));
    platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  });

  afterAll(async () => {
    await platform?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a realtime token forged with the former fixed development secret, claiming platform ownership', async () => {
    const { projectId } = await ownerWithProject(platform, 'victim');
    const forged = signPrincipal({ kind: 'user', userId: 'attacker', sessionId: 'none', platformOwner: true }, FORMER_REALTIME_KEY);
    expect(await streamStatus(platform, projectId, forged)).toBe(401);
  });

  it('signs with a random secret of its own, kept in DATA_DIR', async () => {
    expect(await readFile(join(dataDir, PRINCIPAL_SECRET_FILE), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describeWithBackend('redis', 'the generated secret across a restart (sessions in Redis)', ({ url }) => {
  const dataDirs: string[] = [];
  const running: RunningPlatform[] = [];
  // Its own keys on the Redis other test files share (registration counters are per address).
  const keyPrefix = `secret-${randomBytes(4).toString('hex')}:`;

  async function start(dataDir: string): Promise<RunningPlatform> {
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, REDIS_URL: url, REDIS_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'silent' }));
    running.push(platform);
    return platform;
  }

  afterAll(async () => {
    for (const platform of running) await platform.close();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps realtime tokens valid after a restart, and no other installation accepts them', async () => {
    const [dataDir, otherDataDir] = [await mkdtemp(join(tmpdir(), 'restart-secret-')), await mkdtemp(join(tmpdir(), 'other-secret-'))];
    dataDirs.push(dataDir, otherDataDir);
    const before = await start(dataDir);
    const { session, projectId } = await ownerWithProject(before, 'restarted');
    const issued = await call(before, 'GET', '/api/realtime/token', session);
    expect(issued.status).toBe(200);
    expect(await streamStatus(before, projectId, issued.body.token)).toBe(200);
    await before.close();
    running.splice(running.indexOf(before), 1);

    const after = await start(dataDir);
    expect(await streamStatus(after, projectId, issued.body.token)).toBe(200);
    const other = await start(otherDataDir);
    expect(await streamStatus(other, projectId, issued.body.token)).toBe(401);
  });
});
