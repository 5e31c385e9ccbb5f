import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@platform/kit';
import { STORE_LOG_FILE } from '@platform/storage';
import { failWritesTo } from '@platform/storage/testing';
import { describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform } from './host';
import { httpCaller, registerAccount } from './testing/platform-http';
import { succeeding } from './testing/populated-project';

describe('the all-in-one when the embedded store can no longer write', () => {
  it('turns read-only: a change answers 503 and is not read afterwards, reads go on, /api/health says degraded, the failure is logged once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'store-failure-health-'));
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir }), { logger });
    const call = httpCaller(() => platform.url);
    const as = succeeding(call);
    const health = async () => ((await (await fetch(`${platform.url}/api/health`)).json()) as { status: string }).status;
    let writesWork = () => {};
    try {
      const owner = await registerAccount(call, 'disk-full');
      const projectId = (await as(owner, 'POST', '/api/projects', { name: 'Disk full' })).id as string;
      await as(owner, 'POST', `/api/projects/${projectId}/types`, { id: 'notes', name: 'Notes' });
      const data = `/api/projects/${projectId}/types/notes/data`;
      await as(owner, 'POST', data, { id: 'n1', title: 'on disk' });
      expect(await health()).toBe('ok');

      writesWork = await failWritesTo(join(dataDir, STORE_LOG_FILE));
      const patched = await call('PATCH', `${data}/n1`, owner.token, { modifier: { $set: { title: 'not on disk' } }, baseRevision: 0 });
      expect(patched).toMatchObject({ status: 503, body: { code: 'STORE_UNAVAILABLE' } });
      expect(await call('POST', data, owner.token, { id: 'n2', title: 'not on disk either' })).toMatchObject({ status: 503, body: { code: 'STORE_UNAVAILABLE' } });

      expect(await as(owner, 'GET', `${data}/n1`)).toMatchObject({ title: 'on disk', revision: 0 });
      expect((await call('GET', `${data}/n2`, owner.token)).status).toBe(404);
      expect((await as(owner, 'GET', `${data}?updatedAt=0`)).items.map((item: { id: string; title: string }) => [item.id, item.title])).toEqual([['n1', 'on disk']]);
      // The gateway's monitors probe every 2 s.
      await expect.poll(health, { timeout: 10_000, interval: 250 }).toBe('degraded');
      const failures = lines.filter((line) => line.level === 50 && String(line.msg).includes('refuses every write'));
      expect(failures).toEqual([expect.objectContaining({ file: join(dataDir, STORE_LOG_FILE), err: expect.objectContaining({ code: 'EIO' }) })]);
      expect(lines.filter((line) => String(line.msg).includes('back to what its log holds'))).toHaveLength(1);
    } finally {
      writesWork();
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
