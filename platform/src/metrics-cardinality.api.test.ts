import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

/** What a client chooses (paths, methods) must not choose the metrics' series: their number stays bounded. */
let dataDir: string;
let platform: RunningPlatform;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'metrics-cardinality-'));
  platform = await startPlatform(loadPlatformConfig({ PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
});

afterAll(async () => {
  await platform?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function requestSeries(): Promise<string[]> {
  const text = await (await fetch(platform.metricsUrl as string)).text();
  return text.split('\n').filter((line) => line.startsWith('platform_http_requests_total{'));
}

// Methods Node's parser accepts; each used to become a label value of its own.
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'PURGE', 'REPORT', 'MKACTIVITY', 'CHECKOUT', 'MERGE', 'NOTIFY', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACL', 'BIND', 'REBIND', 'UNBIND', 'LINK', 'UNLINK', 'MKCALENDAR'];
const PREFIXES = ['/', '/api/', '/api/projects/', '/api/health/', '/api/public/domains/', '/nothing/'];

describe('request metrics under random paths and methods', () => {
  it('label methods from a fixed set and unknown paths as unmatched', async () => {
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(
        Array.from({ length: 30 }, async (_, index) => {
          const path = `${PREFIXES[index % PREFIXES.length]}${randomBytes(6).toString('hex')}/${randomBytes(4).toString('hex')}?q=${randomBytes(4).toString('hex')}`;
          const response = await fetch(`${platform.url}${path}`, { method: METHODS[(batch * 30 + index) % METHODS.length] });
          await response.arrayBuffer();
        }),
      );
    }
    const series = await requestSeries();
    const methods = new Set(series.map((line) => /method="([^"]*)"/.exec(line)?.[1]));
    expect([...methods].filter((method) => !['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', '_OTHER'].includes(method as string))).toEqual([]);
    expect(series.every((line) => !/route="[^"]*[0-9a-f]{8}/.test(line))).toBe(true);
    const before = series.length;
    // Another round of new paths and every method again adds no series.
    await Promise.all(METHODS.map(async (method) => (await fetch(`${platform.url}/${randomBytes(6).toString('hex')}`, { method })).arrayBuffer()));
    expect((await requestSeries()).length).toBe(before);
  });
});
