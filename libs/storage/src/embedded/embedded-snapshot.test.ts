import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredDocument } from '../port';
import type { EmbeddedCollection } from './embedded-collection';
import { createEmbeddedStore, STORE_LOG_FILE, type EmbeddedDocumentStore } from './embedded-store';

const logLines = async (dataDir: string) => (await readFile(join(dataDir, STORE_LOG_FILE), 'utf8')).split('\n').filter(Boolean);

/** Resolves once `condition` holds, checking every few milliseconds (at most `limitMs`). */
async function until(condition: () => Promise<boolean>, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Holds every open of a file whose path ends with `suffix` (the copy a snapshot goes to) until
 * `release` is called; `opening` resolves when the first such open starts. A slow disk, without timing.
 */
function holdOpens(suffix: string): { opening: Promise<void>; release: () => void; restore: () => void } {
  const realOpen = fsPromises.open;
  let started!: () => void;
  const opening = new Promise<void>((resolve) => {
    started = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const heldOpen: typeof realOpen = async (path, ...rest) => {
    if (String(path).endsWith(suffix)) {
      started();
      await released;
    }
    return realOpen(path, ...rest);
  };
  fsPromises.open = heldOpen;
  syncBuiltinESMExports();
  return {
    opening,
    release,
    restore: () => {
      fsPromises.open = realOpen;
      syncBuiltinESMExports();
    },
  };
}

/** A section that writes `A`, waits for `release`, then writes `B`. */
function sectionWritingTwice(store: EmbeddedDocumentStore): { done: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const done = store.atomically(async (section) => {
    await section.collection('x').insertOne({ id: 'A' });
    await held;
    await section.collection('x').insertOne({ id: 'B' });
  });
  return { done, release };
}

describe('embedded store snapshots (compaction, backup)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'embedded-snapshot-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('a compaction holds none of a section opened right after its snapshot was taken', async () => {
    const dataDir = join(root, 'data');
    const store = await createEmbeddedStore({ dataDir, fsync: false });
    const x = store.collection('x');
    await x.insertOne({ id: 'k', n: 0 });
    // Line 1001 starts a compaction; its copy's file is opened after this write resolves.
    for (let n = 1; n <= 1000; n += 1) await x.updateOne({ id: 'k' }, { $set: { n } });
    const section = sectionWritingTwice(store);
    await until(async () => (await logLines(dataDir)).length < 10);
    // A power cut now, the section still open: what the disk holds is the compacted log.
    const crashed = join(root, 'crashed');
    await mkdir(crashed);
    await copyFile(join(dataDir, STORE_LOG_FILE), join(crashed, STORE_LOG_FILE));
    section.release();
    await section.done;
    await store.close();

    const reopened = await createEmbeddedStore({ dataDir: crashed });
    expect(await reopened.collection('x').find({}, { sort: { id: 1 } })).toEqual([{ id: 'k', n: 1000 }]);
    await reopened.close();
  });

  it('a backup whose copy is slow to open holds none of a section opened after its snapshot was taken', async () => {
    const dataDir = join(root, 'data');
    const store = await createEmbeddedStore({ dataDir });
    await store.collection('x').insertOne({ id: 'seed' });
    const slowDisk = holdOpens(`${join('backup', STORE_LOG_FILE)}.compact`);
    let section: ReturnType<typeof sectionWritingTwice> | undefined;
    try {
      const backup = store.backup(join(root, 'backup'));
      await slowDisk.opening;
      section = sectionWritingTwice(store);
      slowDisk.release();
      await backup;
    } finally {
      slowDisk.restore();
      section?.release();
    }
    await section?.done;
    await store.close();

    expect(await logLines(join(root, 'backup'))).toEqual(['{"c":"x","put":{"id":"seed"}}']);
    const reopened = await createEmbeddedStore({ dataDir });
    expect((await reopened.collection('x').find({}, { sort: { id: 1 } })).map((item) => item.id)).toEqual(['A', 'B', 'seed']);
    await reopened.close();
  });

  it('keeps no JSON text of the documents it serializes: only a write keeps its own', async () => {
    const dataDir = join(root, 'data');
    await mkdir(dataDir);
    await writeFile(join(dataDir, STORE_LOG_FILE), Array.from({ length: 20 }, (_, n) => `{"c":"x","put":{"id":"d${n}","n":${n}}}\n`).join(''));
    const store = await createEmbeddedStore({ dataDir });
    const x = store.collection('x') as unknown as EmbeddedCollection<StoredDocument>;
    await x.updateOne({ id: 'd0' }, { $set: { n: -1 } });
    const backup = await store.backup(join(root, 'backup'));
    expect(backup.records).toBe(20);
    const kept = Array.from({ length: 20 }, (_, n) => `d${n}`).filter((id) => x.keepsJsonOf(id));
    await store.close();
    // The text d0's update made for its log line stays (the next update compares against it);
    // the backup's text of the other nineteen, read from the log, went with the backup.
    expect(kept).toEqual(['d0']);
  });
});
