import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestBackup } from './control-socket';
import { createEmbeddedStore, STORE_LOG_FILE, type EmbeddedDocumentStore } from './embedded-store';

describe('embedded store online backup', () => {
  let root: string;
  let dataDir: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'embedded-backup-'));
    dataDir = join(root, 'data');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** Writes entities with their history in atomic sections, and plain items, until `stop` is set. */
  function writeLoad(store: EmbeddedDocumentStore, acknowledged: string[], stop: { now: boolean }): Promise<void[]> {
    const writer = async (n: number) => {
      for (let i = 0; !stop.now; i += 1) {
        const id = `w${n}-${i}`;
        if (i % 2 === 0) {
          await store.atomically(async (section) => {
            await section.collection('entities').insertOne({ id, revision: 1 });
            await section.collection('entities.history').insertOne({ id: `${id}@1`, entityId: id });
          });
        } else {
          await store.collection('items').insertOne({ id });
        }
        acknowledged.push(id);
      }
    };
    return Promise.all([writer(0), writer(1), writer(2)]);
  }

  it('asked through the control socket under write load, holds every write acknowledged before it began, and restores by opening it', async () => {
    const store = await createEmbeddedStore({ dataDir, controlSocket: true });
    const acknowledged: string[] = [];
    const stop = { now: false };
    const load = writeLoad(store, acknowledged, stop);
    while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    const before = [...acknowledged];
    const summary = await requestBackup(dataDir, join(root, 'backup'));
    const afterBackup = acknowledged.length;
    while (acknowledged.length < afterBackup + 100) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.now = true;
    await load;
    await store.close();

    expect(summary).toMatchObject({ directory: join(root, 'backup') });
    expect(summary.bytes).toBeGreaterThan(0);
    expect(await readdir(join(root, 'backup'))).toEqual([STORE_LOG_FILE]);
    const restored = await createEmbeddedStore({ dataDir: join(root, 'backup') });
    const present = new Set([...(await restored.collection('entities').find({})), ...(await restored.collection('items').find({}))].map((document) => document.id));
    expect(before.filter((id) => !present.has(id))).toEqual([]);
    // Writes went on after the backup: it is a copy at one instant, not the store's later state.
    expect(present.size).toBeLessThan(acknowledged.length);
    const entities = (await restored.collection('entities').find({})).map((entity) => entity.id).sort();
    const histories = (await restored.collection('entities.history').find({})).map((entry) => String(entry.entityId)).sort();
    expect(histories).toEqual(entities);
    await restored.close();
  }, 60_000);

  it('waits for an open atomic section and holds all of it', async () => {
    const store = await createEmbeddedStore({ dataDir });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const section = store.atomically(async (open) => {
      await open.collection('a').insertOne({ id: 'first' });
      await held;
      await open.collection('b').insertOne({ id: 'second' });
    });
    let backedUp = false;
    const backup = store.backup(join(root, 'backup')).then((summary) => {
      backedUp = true;
      return summary;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(backedUp).toBe(false);
    release();
    await Promise.all([section, backup]);
    await store.close();

    const restored = await createEmbeddedStore({ dataDir: join(root, 'backup') });
    expect(await restored.collection('a').findById('first')).toEqual({ id: 'first' });
    expect(await restored.collection('b').findById('second')).toEqual({ id: 'second' });
    await restored.close();
  });

  it('refuses a directory that is not empty and writes nothing into it', async () => {
    const store = await createEmbeddedStore({ dataDir, controlSocket: true });
    await store.collection('a').insertOne({ id: '1' });
    const target = join(root, 'occupied');
    await store.backup(target);
    await expect(requestBackup(dataDir, target)).rejects.toThrow(`the backup directory ${target} is not empty`);
    await writeFile(join(root, 'file'), 'x');
    await expect(store.backup(root)).rejects.toThrow(/not empty/);
    expect((await readdir(root)).sort()).toEqual(['data', 'file', 'occupied']);
    await store.close();
  });

  it('answers a malformed control request with an error naming the field', async () => {
    const store = await createEmbeddedStore({ dataDir, controlSocket: true });
    await expect(requestBackup(dataDir, '')).rejects.toThrow(/bad request.*directory/s);
    await store.close();
    await expect(requestBackup(dataDir, join(root, 'late'))).rejects.toThrow(/does not answer/);
  });
});
