import { mkdtemp, open, rm, stat, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@platform/kit';
import { STORE_LOG_FILE } from '@platform/storage';
import { describe, expect, it, vi } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform } from './host';

/** Makes every write to `file` (the file it is now, by inode) fail with EIO, as a failing disk does; other files are written as usual. */
async function failWritesTo(file: string): Promise<void> {
  const { ino } = await stat(file);
  const probe = await open(file, 'r');
  const prototype = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const write = prototype.write;
  vi.spyOn(prototype, 'write').mockImplementation(async function (this: FileHandle, ...args: unknown[]) {
    if ((await this.stat()).ino === ino) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    return (write as (...args: unknown[]) => Promise<unknown>).apply(this, args);
  } as FileHandle['write']);
}

describe('the all-in-one when the embedded store can no longer write', () => {
  it('reports the store down in /api/health and logs the failure once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'store-failure-health-'));
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const health = async (url: string) => ((await (await fetch(`${url}/api/health`)).json()) as { status: string }).status;
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir }), { logger });
    try {
      expect(await health(platform.url)).toBe('ok');
      await failWritesTo(join(dataDir, STORE_LOG_FILE));
      const store = platform.context!.store;
      await expect(store.collection('probe').insertOne({ id: 'refused' })).rejects.toMatchObject({ code: 'EIO' });
      await expect(store.collection('probe').insertOne({ id: 'refused too' })).rejects.toThrow();
      // The gateway's monitors probe every 2 s.
      await expect.poll(() => health(platform.url), { timeout: 10_000, interval: 250 }).toBe('degraded');
      const failures = lines.filter((line) => line.level === 50 && String(line.msg).includes('refuses every write'));
      expect(failures).toEqual([expect.objectContaining({ file: join(dataDir, STORE_LOG_FILE), err: expect.objectContaining({ code: 'EIO' }) })]);
    } finally {
      vi.restoreAllMocks();
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
