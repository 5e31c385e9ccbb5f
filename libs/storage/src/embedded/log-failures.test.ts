import { lstat, mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../port';
import { failWritesTo } from '../testing/failing-disk';
import { createEmbeddedStore, STORE_LOG_FILE } from './embedded-store';
import type { LogReporter } from './log-reporter';

type Report = { level: 'warn' | 'error'; fields: Record<string, unknown>; message: string };

function recordingReporter(): LogReporter & { reports: Report[] } {
  const reports: Report[] = [];
  return {
    reports,
    warn: (fields, message) => reports.push({ level: 'warn', fields, message }),
    error: (fields, message) => reports.push({ level: 'error', fields, message }),
  };
}

describe('embedded store when its log fails', () => {
  let dataDir: string;
  const logFile = () => join(dataDir, STORE_LOG_FILE);
  const inode = async () => (await stat(logFile())).ino;
  const exists = (path: string) => lstat(path).then(
    () => true,
    () => false,
  );

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'embedded-log-failures-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers ping with false once an append fails, and reports that once', async () => {
    const logger = recordingReporter();
    const store = await createEmbeddedStore({ dataDir, fsync: false, logger });
    expect(await store.ping()).toBe(true);
    // A directory where the log should be: the first append fails (EISDIR), as ENOSPC or EIO would.
    await mkdir(logFile());
    const users = store.collection('users');
    await expect(users.insertOne({ id: 'u1' })).rejects.toMatchObject({ name: 'StoreUnavailableError', cause: expect.objectContaining({ code: 'EISDIR' }) });
    await expect(users.insertOne({ id: 'u2' })).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await store.ping()).toBe(false);
    expect(await users.count()).toBe(0);
    expect(logger.reports).toEqual([
      { level: 'error', fields: expect.objectContaining({ file: logFile() }), message: expect.stringContaining('refuses every write') },
      { level: 'warn', fields: expect.objectContaining({ documents: 0 }), message: expect.stringContaining('back to what its log holds') },
    ]);
    await store.close();
  });

  it('after a failed append, reads what the log holds: the refused writes are gone, later writes are refused before they change anything', async () => {
    const logger = recordingReporter();
    const store = await createEmbeddedStore({ dataDir, fsync: false, logger });
    const notes = store.collection<{ id: string; title: string }>('notes');
    await notes.ensureIndex({ keys: { title: 1 }, unique: true });
    await notes.insertOne({ id: 'kept', title: 'on disk' });
    await notes.insertOne({ id: 'gone', title: 'deleted on disk' });
    await notes.deleteMany({ id: 'gone' });
    const writesWork = await failWritesTo(logFile());
    try {
      // Issued together, so one batch the disk refuses: each is applied in memory before its line is written.
      const refused = [notes.updateOne({ id: 'kept' }, { $set: { title: 'not on disk' } }), notes.insertOne({ id: 'lost', title: 'lost' }), store.atomically(async (section) => section.collection('notes').insertOne({ id: 'in a section', title: 'x' }))];
      for (const write of refused) await expect(write).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await notes.find({}, { sort: { id: 1 } })).toEqual([{ id: 'kept', title: 'on disk' }]);
      expect(await notes.findOne({ title: 'not on disk' })).toBeNull();
      expect(await notes.count({ title: 'on disk' })).toBe(1);

      // Refused before memory changes: nothing of them is read.
      await expect(notes.insertOne({ id: 'later', title: 'later' })).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(notes.updateOne({ id: 'kept' }, { $set: { title: 'later' } })).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(notes.deleteMany({})).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.dropCollection('notes')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await notes.find({})).toEqual([{ id: 'kept', title: 'on disk' }]);
      // A read that ensures its index still gets it: an index changes no document.
      await notes.ensureIndex({ keys: { title: 1, id: 1 } });
      expect(await notes.find({ title: { $gte: 'a' } }, { sort: { title: 1, id: 1 } })).toEqual([{ id: 'kept', title: 'on disk' }]);
      expect(await store.ping()).toBe(false);
      expect(logger.reports.map((report) => report.level)).toEqual(['error', 'warn']);
    } finally {
      writesWork();
    }
    await store.close();
    const reopened = await createEmbeddedStore({ dataDir, fsync: false });
    expect(await reopened.collection('notes').find({})).toEqual([{ id: 'kept', title: 'on disk' }]);
    await reopened.close();
  });

  it('tells the operator to cut the file when a refused batch could not be cut off it (a restart would replay it)', async () => {
    const logger = recordingReporter();
    const store = await createEmbeddedStore({ dataDir, fsync: false, logger });
    await store.collection('notes').insertOne({ id: 'kept' });
    const { size } = await stat(logFile());
    const writesWork = await failWritesTo(logFile(), { truncate: true });
    try {
      await expect(store.collection('notes').insertOne({ id: 'refused' })).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      writesWork();
    }
    expect(logger.reports[0]).toMatchObject({ level: 'error', message: expect.stringContaining(`before restarting, cut it to its first ${size} bytes (truncate -s ${size} ${logFile()})`) });
    await store.close();
  });

  it('goes on taking writes after a compaction that failed before its swap, and does not start another at the next write', async () => {
    const logger = recordingReporter();
    const store = await createEmbeddedStore({ dataDir, fsync: false, logger });
    // The compaction's copy cannot be opened (its directory is missing), as with ENOSPC or EIO.
    const copy = `${logFile()}.compact`;
    await symlink(join(dataDir, 'missing', 'copy'), copy);
    const counters = store.collection('counters');
    await counters.insertOne({ id: 'c', n: 0 });
    for (let i = 1; i <= 1000; i += 1) await counters.updateOne({ id: 'c' }, { $set: { n: i } });
    // The failed compaction removes what it left behind.
    await expect.poll(() => exists(copy)).toBe(false);
    const before = await inode();

    await counters.insertOne({ id: 'after' });
    for (let i = 1001; i <= 1010; i += 1) await counters.updateOne({ id: 'c' }, { $set: { n: i } });
    expect(await store.ping()).toBe(true);
    await store.close();
    // No compaction ran since: it waits out its retry delay.
    expect(await inode()).toBe(before);
    expect(logger.reports).toEqual([{ level: 'warn', fields: expect.objectContaining({ file: logFile(), retryInMs: expect.any(Number) }), message: expect.stringContaining('compaction failed') }]);

    const reopened = await createEmbeddedStore({ dataDir });
    expect(await reopened.collection('counters').findById('c')).toEqual({ id: 'c', n: 1010 });
    expect(await reopened.collection('counters').findById('after')).toEqual({ id: 'after' });
    await reopened.close();
  });

  it('does not rewrite the log after every write when index lines outnumber documents', async () => {
    const store = await createEmbeddedStore({ dataDir, fsync: false });
    const docs = store.collection('docs');
    await docs.insertOne({ id: 'first' });
    const first = await inode();
    // 350 collections with 3 indexes each and no document yet: 1,050 live lines, none of them a document.
    await Promise.all(
      Array.from({ length: 350 }, async (_, n) => {
        const things = store.collection(`p${n}-things`);
        await things.ensureIndex({ keys: { updatedAt: 1 } });
        await things.ensureIndex({ keys: { ownerId: 1 } });
        await things.ensureIndex({ keys: { a: 1, b: 1 } });
      }),
    );
    // Past 1,000 lines and one document a compaction runs once, and learns how many index lines are live.
    await expect.poll(inode).not.toBe(first);
    const compacted = await inode();

    for (let i = 0; i < 50; i += 1) await docs.insertOne({ id: `d${i}` });
    // Close waits for a running compaction: one would have replaced the file.
    await store.close();
    expect(await inode()).toBe(compacted);
  });
});
