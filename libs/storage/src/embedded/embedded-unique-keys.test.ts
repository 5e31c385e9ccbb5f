import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateKeyError } from '../port';
import { createEmbeddedStore, STORE_LOG_FILE, type EmbeddedDocumentStore } from './embedded-store';
import type { LogReporter } from './log-reporter';

const logLines = async (dataDir: string) => (await readFile(join(dataDir, STORE_LOG_FILE), 'utf8')).split('\n').filter(Boolean);

/** A reporter that keeps the fields of every warning. */
function recordingReporter(): LogReporter & { warnings: Array<Record<string, unknown>> } {
  const warnings: Array<Record<string, unknown>> = [];
  return { warnings, warn: (fields) => warnings.push(fields), error: () => undefined };
}

/** A section that changes `users.a`'s email to `new@x` (or deletes `a`), then stays open until `release`. */
function sectionFreeing(store: EmbeddedDocumentStore, change: 'update' | 'delete'): { done: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const done = store.atomically(async (section) => {
    const users = section.collection('users');
    if (change === 'update') await users.updateOne({ id: 'a' }, { $set: { email: 'new@x' } });
    else await users.deleteMany({ id: 'a' });
    await held;
  });
  return { done, release };
}

/** Whether `promise` has settled after the event loop went round a few times. */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.finally(() => {
    settled = true;
  });
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  return settled;
}

describe('embedded store unique keys across crashes', () => {
  let root: string;
  let dataDir: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'embedded-unique-keys-'));
    dataDir = join(root, 'data');
    await mkdir(dataDir);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('opens a log in which two documents hold one unique key: the one written later keeps it, and each clash is reported', async () => {
    await writeFile(
      join(dataDir, STORE_LOG_FILE),
      [
        { c: 'users', index: { keys: { email: 1 }, unique: true } },
        { c: 'users', put: { id: 'a', email: 'e@x' } },
        { c: 'users', put: { id: 'b', email: 'e@x' } },
        { c: 'users', put: { id: 'c', email: 'f@x' } },
        { c: 'users', put: { id: 'd', email: 'f@x' } },
        // c is written again: last in the log, though first of the two in memory's order.
        { c: 'users', put: { id: 'c', email: 'f@x', n: 1 } },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const logger = recordingReporter();
    const store = await createEmbeddedStore({ dataDir, logger });
    expect(logger.warnings).toEqual([
      { collection: 'users', index: { email: 1 }, key: '["e@x"]', kept: 'b', other: 'a' },
      { collection: 'users', index: { email: 1 }, key: '["f@x"]', kept: 'c', other: 'd' },
    ]);
    const users = store.collection('users');
    await expect(users.insertOne({ id: 'z', email: 'e@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
    // The other document keeps its data but not the key: a write keeping it is refused, changing or deleting it frees nothing.
    await expect(users.updateOne({ id: 'a' }, { $set: { n: 1 } })).rejects.toBeInstanceOf(DuplicateKeyError);
    await users.updateOne({ id: 'a' }, { $set: { email: 'a@x' } });
    await users.deleteMany({ id: 'd' });
    await expect(users.insertOne({ id: 'z', email: 'e@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(users.insertOne({ id: 'z', email: 'f@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await store.close();

    const reopened = await createEmbeddedStore({ dataDir, logger: recordingReporter() });
    expect(await reopened.collection('users').find({}, { sort: { id: 1 } })).toEqual([
      { id: 'a', email: 'a@x' },
      { id: 'b', email: 'e@x' },
      { id: 'c', email: 'f@x', n: 1 },
    ]);
    await reopened.close();
  });

  for (const change of ['update', 'delete'] as const) {
    it(`a plain write taking a unique key an open section gave up (${change}) reaches the disk in that section's line`, async () => {
      const store = await createEmbeddedStore({ dataDir });
      const users = store.collection('users');
      await users.ensureIndex({ keys: { email: 1 }, unique: true });
      await users.insertOne({ id: 'a', email: 'e@x' });
      const section = sectionFreeing(store, change);
      const taking = users.insertOne({ id: 'b', email: 'e@x' });
      // Not acknowledged while the line that frees its key is not written.
      expect(await settledSoon(taking)).toBe(false);
      // A power cut now: the disk has neither.
      const crashed = join(root, 'crashed');
      await mkdir(crashed);
      await copyFile(join(dataDir, STORE_LOG_FILE), join(crashed, STORE_LOG_FILE));
      section.release();
      await Promise.all([section.done, taking]);
      await store.close();

      const after = change === 'update' ? [{ c: 'users', put: { id: 'a', email: 'new@x' } }] : [{ c: 'users', del: 'a' }];
      expect(JSON.parse((await logLines(dataDir)).at(-1) as string)).toEqual({ group: [...after, { c: 'users', put: { id: 'b', email: 'e@x' } }] });
      const reopened = await createEmbeddedStore({ dataDir: crashed });
      expect(await reopened.collection('users').find({})).toEqual([{ id: 'a', email: 'e@x' }]);
      await reopened.close();
    });
  }

  it('a section taking a unique key another open section gave up commits with it', async () => {
    const store = await createEmbeddedStore({ dataDir });
    const users = store.collection('users');
    await users.ensureIndex({ keys: { email: 1 }, unique: true });
    await users.insertOne({ id: 'a', email: 'e@x' });
    const freeing = sectionFreeing(store, 'update');
    const taking = store.atomically((section) => section.collection('users').insertOne({ id: 'b', email: 'e@x' }));
    expect(await settledSoon(taking)).toBe(false);
    freeing.release();
    await Promise.all([freeing.done, taking]);
    await store.close();
    expect(JSON.parse((await logLines(dataDir)).at(-1) as string)).toEqual({
      group: [
        { c: 'users', put: { id: 'a', email: 'new@x' } },
        { c: 'users', put: { id: 'b', email: 'e@x' } },
      ],
    });
  });
});
