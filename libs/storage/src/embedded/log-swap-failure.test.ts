import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from '../port';
import { createEmbeddedStore } from './embedded-store';
import type { LogReporter } from './log-reporter';

// The compaction's rename is the one call this file makes fail; every other call is the real one.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, rename: vi.fn(actual.rename) };
});

describe('embedded store when its log fails while swapping in a compacted file', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'embedded-log-swap-'));
  });
  afterEach(async () => {
    vi.mocked(rename).mockReset();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses reads as well as writes: which file holds the log is not known', async () => {
    const reports: Array<{ level: string; message: string }> = [];
    const logger: LogReporter = {
      warn: (_fields, message) => reports.push({ level: 'warn', message }),
      error: (_fields, message) => reports.push({ level: 'error', message }),
    };
    const store = await createEmbeddedStore({ dataDir, fsync: false, logger });
    const counters = store.collection<{ id: string; n: number }>('counters');
    await counters.insertOne({ id: 'c', n: 0 });
    vi.mocked(rename).mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' }));
    // Past 1,000 lines, most of them dead, a compaction runs; its rename fails.
    for (let i = 1; i <= 1000 && (await store.ping()); i += 1) await counters.updateOne({ id: 'c' }, { $set: { n: i } });
    await expect.poll(() => store.ping()).toBe(false);

    await expect(counters.findById('c')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(counters.find({})).rejects.toMatchObject({ name: 'StoreUnavailableError', message: expect.stringContaining('which file holds the writes is not known') });
    await expect(counters.count()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(counters.updateOne({ id: 'c' }, { $set: { n: -1 } })).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.backup(join(dataDir, 'backup'))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(reports.map(({ level, message }) => [level, message])).toEqual([
      ['error', expect.stringContaining('refuses every write')],
      ['error', expect.stringContaining('cannot tell what its log holds')],
    ]);
    await store.close();
  });
});
