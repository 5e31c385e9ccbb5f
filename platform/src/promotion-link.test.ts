import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@platform/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

const PROMOTION_LINE = /^Promote yourself to platform owner: (\S+)$/;

/** The all-in-one platform in development, its log lines captured as an operator reads them. */
async function start(env: Record<string, string>): Promise<{ platform: RunningPlatform; messages: string[]; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'promotion-link-'));
  const messages: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => messages.push((JSON.parse(line) as { msg: string }).msg) } });
  const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, ...env }), { logger });
  return { platform, messages, dataDir };
}

async function registerFirstUser(platform: RunningPlatform): Promise<string> {
  const registered = await fetch(`${platform.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'first@example.org', password: 'correct horse battery' }),
  });
  expect(registered.status).toBe(201);
  return ((await registered.json()) as { token: string }).token;
}

describe('the development owner-promotion link in the log', () => {
  const opened: Array<{ platform: RunningPlatform; dataDir: string }> = [];
  afterEach(async () => {
    for (const { platform, dataDir } of opened.splice(0)) {
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is a full URL on the port the platform listens on (PORT=0), and opening it promotes the first user', async () => {
    const started = await start({});
    opened.push(started);
    const token = await registerFirstUser(started.platform);

    const lines = started.messages.filter((message) => PROMOTION_LINE.test(message));
    expect(lines).toHaveLength(1);
    const url = PROMOTION_LINE.exec(lines[0]!)![1]!;
    expect(url).toMatch(new RegExp(`^${started.platform.url}/api/admin/dev/platform-owner/[0-9a-f]{64}$`));
    expect((await fetch(url)).status).toBe(200);
    const me = await fetch(`${started.platform.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { platformOwner: boolean }).platformOwner).toBe(true);
  });

  it('starts with PUBLIC_URL when set (the address people open, behind a proxy)', async () => {
    const started = await start({ PUBLIC_URL: 'https://platform.example.org/' });
    opened.push(started);
    await registerFirstUser(started.platform);
    expect(started.messages.filter((message) => PROMOTION_LINE.test(message))).toEqual([
      expect.stringMatching(/^Promote yourself to platform owner: https:\/\/platform\.example\.org\/api\/admin\/dev\/platform-owner\/[0-9a-f]{64}$/),
    ]);
  });

  it('refuses a PUBLIC_URL that is not an http(s) URL, naming the variable', () => {
    expect(() => loadPlatformConfig({ PUBLIC_URL: 'platform.example.org' })).toThrow(/PUBLIC_URL/);
    expect(() => loadPlatformConfig({ PUBLIC_URL: 'ftp://platform.example.org' })).toThrow(/PUBLIC_URL/);
  });
});
