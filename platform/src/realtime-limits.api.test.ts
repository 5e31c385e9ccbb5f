import { ConfigError } from '@platform/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { allInOneForTests } from './testing/platforms-on-disk';

const { platform, call } = allInOneForTests('realtime-limits-', { REALTIME_MAX_STREAMS_PER_USER: '1' });
let session: string;
let projectId: string;

beforeAll(async () => {
  const registered = await call('POST', '/api/auth/register', undefined, { email: `limits-${Date.now()}@example.org`, password: 'limits password 1' });
  expect(registered.status).toBe(201);
  session = registered.body.token as string;
  const project = await call('POST', '/api/projects', session, { name: 'limits project' });
  expect(project.status).toBe(201);
  projectId = project.body.id as string;
});

describe('REALTIME_MAX_STREAMS_* and REALTIME_MAX_BUFFERED_BYTES', () => {
  it('default to 20 per user, 50 per address, 10000 in the process and 256 KiB; a bad value is refused, naming the variable', () => {
    const defaults = loadPlatformConfig({});
    expect([defaults.REALTIME_MAX_STREAMS_PER_USER, defaults.REALTIME_MAX_STREAMS_PER_ADDRESS, defaults.REALTIME_MAX_STREAMS, defaults.REALTIME_MAX_BUFFERED_BYTES]).toEqual([20, 50, 10_000, 262_144]);
    for (const [name, bad] of [['REALTIME_MAX_STREAMS_PER_USER', '0'], ['REALTIME_MAX_STREAMS_PER_ADDRESS', 'many'], ['REALTIME_MAX_STREAMS', '-1'], ['REALTIME_MAX_BUFFERED_BYTES', '1024']] as const) {
      expect(() => loadPlatformConfig({ [name]: bad })).toThrow(ConfigError);
      expect(() => loadPlatformConfig({ [name]: bad })).toThrow(new RegExp(name));
    }
    expect(loadPlatformConfig({ REALTIME_MAX_STREAMS: '500' }).REALTIME_MAX_STREAMS).toBe(500);
  });

  it('reach the gateway: past REALTIME_MAX_STREAMS_PER_USER the stream answers 429 with Retry-After', async () => {
    const abort = new AbortController();
    const url = `${platform().url}/api/realtime/projects/${projectId}/sync`;
    const headers = { authorization: `Bearer ${session}` };
    try {
      expect((await fetch(url, { headers, signal: abort.signal })).status).toBe(200);
      const refused = await fetch(url, { headers });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { code: string }).code).toBe('REALTIME_TOO_MANY_STREAMS_PER_USER');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      abort.abort();
    }
  });
});
