import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

const run = promisify(execFile);

async function register(platform: RunningPlatform, email: string): Promise<string> {
  const registered = await fetch(`${platform.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', displayName: 'Rita' }),
  });
  expect(registered.status).toBe(201);
  return ((await registered.json()) as { token: string }).token;
}

async function me(platform: RunningPlatform, token: string): Promise<Response> {
  return fetch(`${platform.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
}

/** The all-in-one platform on DATA_DIR, its log lines captured as an operator would read them. */
async function start(dataDir: string, logs: Array<Record<string, unknown>>): Promise<RunningPlatform> {
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) } });
  return startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir }), { logger });
}

describe('the all-in-one shape across a restart on the same DATA_DIR', () => {
  let dataDir: string;
  let platform: RunningPlatform | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'restart-'));
  });
  afterAll(async () => {
    await platform?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps a signed-in session and voids the pending owner-promotion token', async () => {
    const firstLogs: Array<Record<string, unknown>> = [];
    platform = await start(dataDir, firstLogs);
    const token = await register(platform, 'restart@example.org');
    const promotionPath = firstLogs.map((line) => line.promotionPath).find((path): path is string => typeof path === 'string');
    expect(promotionPath).toMatch(/^\/api\/admin\/dev\/platform-owner\/[0-9a-f]{64}$/);
    await platform.close();

    platform = await start(dataDir, []);
    const answer = await me(platform, token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ email: 'restart@example.org', displayName: 'Rita' });
    const promotion = await fetch(`${platform.url}${promotionPath}`);
    expect(promotion.status).toBe(403);
    expect(platform.context?.kv.kind).toBe('embedded');
    await platform.close();
    platform = undefined;
  });

  it('lets promote-owner, run while the platform is stopped, reach the kept session', async () => {
    platform = await start(dataDir, []);
    const token = await register(platform, 'operator@example.org');
    await platform.close();

    await run('pnpm', ['--silent', '--filter', 'identity', 'promote-owner', 'operator@example.org'], { env: { ...process.env, DATA_DIR: dataDir, MONGO_URL: '', REDIS_URL: '' } });

    platform = await start(dataDir, []);
    const ownersOnly = await fetch(`${platform.url}/api/admin/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(ownersOnly.status).toBe(200);
  }, 60_000);
});
