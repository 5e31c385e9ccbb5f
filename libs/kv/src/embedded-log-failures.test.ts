import { lstat, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogReporter } from '@platform/storage/log-files';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedKeyValue } from './embedded';

describe('embedded KeyValue when its log fails', () => {
  let directory: string;
  let reports: Array<{ level: 'warn' | 'error'; message: string }>;
  const logger: LogReporter = {
    warn: (_fields, message) => reports.push({ level: 'warn', message }),
    error: (_fields, message) => reports.push({ level: 'error', message }),
  };

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kv-log-failures-'));
    reports = [];
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('answers ping with false once a write fails, and reports that once', async () => {
    const kv = await createEmbeddedKeyValue({ directory, fsync: false, logger });
    expect(await kv.ping()).toBe(true);
    // A directory where the log should be: the first write fails (EISDIR), as ENOSPC or EIO would.
    await mkdir(join(directory, 'kv.jsonl'));
    await expect(kv.set('session:a', 'alice')).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(kv.set('session:b', 'bob')).rejects.toThrow();
    expect(await kv.ping()).toBe(false);
    expect(reports).toEqual([{ level: 'error', message: expect.stringContaining('refuses every write') }]);
    await kv.close();
  });

  it('takes writes after the rewrite at open failed, and keeps the log as it was', async () => {
    const first = await createEmbeddedKeyValue({ directory, fsync: false });
    for (let round = 0; round < 5; round += 1) await first.set('k', `v${round}`);
    await first.close();
    // The rewrite's copy cannot be opened (its directory is missing), as with ENOSPC or EIO.
    const copy = join(directory, 'kv.jsonl.compact');
    await symlink(join(directory, 'missing', 'copy'), copy);

    const second = await createEmbeddedKeyValue({ directory, fsync: false, logger });
    await second.set('after', 'failed rewrite');
    expect(await second.ping()).toBe(true);
    await second.close();
    expect(reports).toEqual([{ level: 'warn', message: expect.stringContaining('compaction failed') }]);
    await expect(lstat(copy)).rejects.toMatchObject({ code: 'ENOENT' });

    const third = await createEmbeddedKeyValue({ directory, fsync: false });
    expect(await third.scan('')).toEqual([
      { key: 'after', value: 'failed rewrite' },
      { key: 'k', value: 'v4' },
    ]);
    await third.close();
  });
});
