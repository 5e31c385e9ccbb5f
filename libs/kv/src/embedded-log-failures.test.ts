import { lstat, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogReporter } from '@platform/storage/log-files';
import { failWritesTo } from '@platform/storage/testing';
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
    expect(await kv.get('session:a')).toBeNull();
    expect(reports).toEqual([
      { level: 'error', message: expect.stringContaining('refuses every write') },
      { level: 'warn', message: expect.stringContaining('back to what its log holds (0 keys)') },
    ]);
    await kv.close();
  });

  it('after a failed write, reads what the log holds: the refused writes are gone, later writes are refused before they change anything', async () => {
    const kv = await createEmbeddedKeyValue({ directory, fsync: false, logger });
    await kv.set('session:a', 'alice');
    await kv.increment('count', { ttlMs: 60_000 });
    await kv.setField('sessions:alice', 'a', 'laptop', { ttlMs: 60_000 });
    const writesWork = await failWritesTo(join(directory, 'kv.jsonl'));
    try {
      // Issued together, so one batch the disk refuses: each is applied in memory before its line is written.
      const refused = [kv.set('session:a', 'mallory'), kv.increment('count', { ttlMs: 60_000 }), kv.delete('session:a'), kv.setField('sessions:alice', 'b', 'phone', { ttlMs: 60_000 }), kv.deleteField('sessions:alice', 'a')];
      for (const write of refused) await expect(write).rejects.toMatchObject({ code: 'EIO' });
      const state = async () => ({ session: await kv.get('session:a'), count: await kv.get('count'), fields: await kv.fields('sessions:alice'), keys: (await kv.scan('')).map(({ key }) => key) });
      const onDisk = { session: 'alice', count: '1', fields: [{ field: 'a', value: 'laptop' }], keys: ['count', 'session:a'] };
      expect(await state()).toEqual(onDisk);

      // Refused before memory changes: nothing of them is read.
      await expect(kv.set('later', 'x')).rejects.toMatchObject({ code: 'EIO' });
      await expect(kv.increment('count', { ttlMs: 60_000 })).rejects.toMatchObject({ code: 'EIO' });
      await expect(kv.delete('session:a')).rejects.toMatchObject({ code: 'EIO' });
      await expect(kv.deleteField('sessions:alice', 'a')).rejects.toMatchObject({ code: 'EIO' });
      expect(await state()).toEqual(onDisk);
      expect(await kv.get('later')).toBeNull();
    } finally {
      writesWork();
    }
    await kv.close();
    const reopened = await createEmbeddedKeyValue({ directory, fsync: false });
    expect(await reopened.get('session:a')).toBe('alice');
    expect(await reopened.get('count')).toBe('1');
    await reopened.close();
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
