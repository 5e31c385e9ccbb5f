import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisKeyValue } from '@platform/kv';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { httpCaller } from './testing/platform-http';

/** Two deployments on one Redis (REDIS_KEY_PREFIX): neither sees the other's sessions or counters. */
describeWithBackend('redis', 'REDIS_KEY_PREFIX', ({ url }) => {
  const running: RunningPlatform[] = [];
  const dataDirs: string[] = [];
  const token = randomBytes(4).toString('hex');

  async function deployment(prefix: string): Promise<RunningPlatform> {
    const dataDir = await mkdtemp(join(tmpdir(), 'redis-prefix-'));
    dataDirs.push(dataDir);
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, REDIS_URL: url, REDIS_KEY_PREFIX: prefix, PRINCIPAL_SECRET: 'p'.repeat(64), LOG_LEVEL: 'silent' }));
    running.push(platform);
    return platform;
  }

  afterAll(async () => {
    for (const platform of running) await platform.close();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps each deployment's sessions under its own prefix", async () => {
    const [staging, production] = [await deployment(`staging-${token}:`), await deployment(`production-${token}:`)];
    const registered = await httpCaller(() => staging.url)('POST', '/api/auth/register', undefined, { email: `prefixed-${token}@example.org`, password: 'prefix test password' });
    expect(registered.status).toBe(201);
    expect((await httpCaller(() => staging.url)('GET', '/api/me', registered.body.token)).status).toBe(200);
    // Same secret, same Redis: only the prefix keeps the session from the other deployment.
    expect((await httpCaller(() => production.url)('GET', '/api/me', registered.body.token)).status).toBe(401);
    const redis = await createRedisKeyValue({ url });
    try {
      const keys = (await redis.scan('')).map((entry) => entry.key);
      expect(keys.some((key) => key.startsWith(`staging-${token}:`))).toBe(true);
      // Production wrote only its start-up record that no older session index is left to move.
      expect(keys.filter((key) => key.startsWith(`production-${token}:`))).toEqual([`production-${token}:migrations:user-sessions-map`]);
    } finally {
      await redis.close();
    }
  });

  it('refuses a prefix that would not match itself literally', () => {
    expect(() => loadPlatformConfig({ REDIS_URL: url, REDIS_KEY_PREFIX: 'a*b' })).toThrow(/REDIS_KEY_PREFIX/);
  });
});
