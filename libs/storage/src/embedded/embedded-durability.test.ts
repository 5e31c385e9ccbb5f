import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptLogError } from './read-log';
import { createEmbeddedStore, STORE_LOG_FILE } from './embedded-store';

const fixture = fileURLToPath(new URL('./crash-writer.fixture.ts', import.meta.url));
const logLines = async (dataDir: string) => (await readFile(join(dataDir, STORE_LOG_FILE), 'utf8')).split('\n').filter(Boolean);

/**
 * Runs the crash-writer fixture with `args`, hands `onLine` every line it prints (what it has had
 * acknowledged) until `onLine` answers that there is enough, then kills it with SIGKILL mid-write.
 */
async function killWriterWhen(args: string[], onLine: (line: string) => boolean): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    child.on('exit', () => reject(new Error(`the writer exited early: ${errors}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      let enough = false;
      for (const line of lines) enough = onLine(line) || enough;
      if (enough) resolve();
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('embedded store durability', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'embedded-durability-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps documents, updates, deletes and indexes across a restart', async () => {
    const first = await createEmbeddedStore({ dataDir });
    const items = first.collection('people.history');
    await items.ensureIndex({ keys: { email: 1 }, unique: true });
    await items.insertMany([{ id: '1', email: 'a@x' }, { id: '2', email: 'b@x' }, { id: '3', email: 'c@x' }]);
    await items.updateOne({ id: '1' }, { $set: { 'profile.name': 'Ann' } });
    await items.deleteMany({ id: '2' });
    await first.close();

    const second = await createEmbeddedStore({ dataDir });
    const reopened = second.collection('people.history');
    expect(await reopened.find({}, { sort: { id: 1 } })).toEqual([{ id: '1', email: 'a@x', profile: { name: 'Ann' } }, { id: '3', email: 'c@x' }]);
    await expect(reopened.insertOne({ id: '4', email: 'c@x' })).rejects.toThrow(/duplicate/);
    await second.close();
  });

  it('refuses writes after close, leaving the files as they were', async () => {
    const store = await createEmbeddedStore({ dataDir });
    const items = store.collection('items');
    await items.insertOne({ id: '1' });
    await store.close();
    const before = await readFile(join(dataDir, STORE_LOG_FILE), 'utf8');
    await expect(items.insertOne({ id: '2' })).rejects.toThrow(/closed/);
    await expect(items.updateOne({ id: '1' }, { $set: { late: true } })).rejects.toThrow(/closed/);
    expect(await readFile(join(dataDir, STORE_LOG_FILE), 'utf8')).toBe(before);
  });

  it('refuses a second open of the same directory while the first is open', async () => {
    const store = await createEmbeddedStore({ dataDir });
    await expect(createEmbeddedStore({ dataDir })).rejects.toThrow(/already open/);
    await store.close();
    await (await createEmbeddedStore({ dataDir })).close();
  });

  it('loses no acknowledged write when the process is killed with SIGKILL mid-write, and keeps atomic sections whole', async () => {
    const acknowledged: string[] = [];
    const acknowledgedEntities: string[] = [];
    const sharedRevisions = new Map<string, number>();
    let lastRevision = 0;
    await killWriterWhen([dataDir], (line) => {
      if (line.startsWith('ack ')) acknowledged.push(line.slice(4));
      if (line.startsWith('rev ')) lastRevision = Number(line.slice(4));
      if (line.startsWith('entity ')) acknowledgedEntities.push(line.slice(7));
      if (line.startsWith('shared ')) {
        const [, id, revision] = line.split(' ');
        sharedRevisions.set(id as string, Math.max(Number(revision), sharedRevisions.get(id as string) ?? 0));
      }
      const sharedWrites = [...sharedRevisions.values()].reduce((sum, revision) => sum + revision, 0);
      return acknowledged.length >= 400 && lastRevision >= 50 && acknowledgedEntities.length >= 200 && sharedWrites >= 300;
    });

    // Any prefix of the log is what a crash could leave: a shared document's revision never goes
    // back from one line to the next (sections that ended out of order must not undo each other).
    const sharedOrder = new Map<string, number>();
    const backwards: string[] = [];
    for (const text of await logLines(dataDir)) {
      const line = JSON.parse(text) as { group?: Array<Record<string, unknown>> } & Record<string, unknown>;
      for (const record of line.group ?? [line]) {
        const put = record.put as { id: string; revision: number } | undefined;
        if (record.c !== 'shared' || !put) continue;
        if (put.revision < (sharedOrder.get(put.id) ?? 0)) backwards.push(`${put.id} ${sharedOrder.get(put.id)} -> ${put.revision}`);
        sharedOrder.set(put.id, put.revision);
      }
    }
    expect(backwards).toEqual([]);

    const store = await createEmbeddedStore({ dataDir });
    const items = store.collection('items');
    const ids = new Set((await items.find({}, { projection: { id: 1 } })).map((item) => item.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    const counter = await store.collection('counters').findById('counter');
    expect(counter?.revision).toBeGreaterThanOrEqual(lastRevision);
    expect(counter?.n).toBe(counter?.revision);
    const entityIds = (await store.collection('entities').find({})).map((entity) => entity.id);
    expect(acknowledgedEntities.filter((id) => !entityIds.includes(id))).toEqual([]);
    // Every section that reached the disk reached it whole: no entity without its history and event.
    const historyOf = new Set((await store.collection('entities.history').find({})).map((entry) => entry.entityId));
    const eventOf = new Set((await store.collection('outbox').find({})).map((event) => event.entityId));
    expect(entityIds.filter((id) => !historyOf.has(id) || !eventOf.has(id))).toEqual([]);
    expect(historyOf.size).toBe(entityIds.length);
    expect(eventOf.size).toBe(entityIds.length);
    // Sections that updated the same documents in turn: every acknowledged revision is there, and
    // each revision a document reached has its history record.
    const sharedHistory = new Set((await store.collection('shared.history').find({})).map((entry) => entry.id));
    for (const document of await store.collection<{ id: string; revision: number; n: number }>('shared').find({})) {
      const missing = Array.from({ length: document.revision }, (_, index) => `${document.id}@${index + 1}`).filter((id) => !sharedHistory.has(id));
      expect({ id: document.id, atLeastAcknowledged: document.revision >= (sharedRevisions.get(document.id) ?? 0), n: document.n, missing }).toEqual({
        id: document.id,
        atLeastAcknowledged: true,
        n: document.revision,
        missing: [],
      });
    }
    expect(sharedRevisions.size).toBe(3);
    await store.close();
  }, 60_000);

  it('loses no acknowledged overwrite when killed with SIGKILL while compactions run', async () => {
    const hot = new Map<string, number>();
    let overwrites = 0;
    await killWriterWhen([dataDir, 'overwrites'], (line) => {
      const [kind, id, n] = line.split(' ');
      if (kind === 'hot' && id) {
        hot.set(id, Number(n));
        overwrites += 1;
      }
      // Compaction starts past 1000 lines; several rounds of it by now.
      return overwrites >= 6000;
    });

    const linesLeft = (await logLines(dataDir)).length;
    const store = await createEmbeddedStore({ dataDir });
    for (const [id, n] of hot) expect({ id, n: ((await store.collection('hot').findById(id))?.n as number) >= n }).toEqual({ id, n: true });
    const written = (await store.collection('hot').find({})).reduce((sum, document) => sum + Number(document.n), 0);
    await store.close();
    // Every overwrite was a line: without compactions the log would hold them all.
    expect(linesLeft).toBeLessThan(written / 2);
  }, 120_000);

  it('cuts off a torn last line and keeps appending after it', async () => {
    const first = await createEmbeddedStore({ dataDir });
    await first.collection('items').insertOne({ id: 'kept' });
    await first.close();
    await appendFile(join(dataDir, STORE_LOG_FILE), '{"c":"items","put":{"id":"torn","half');

    const second = await createEmbeddedStore({ dataDir });
    await second.collection('items').insertOne({ id: 'after' });
    expect((await second.collection('items').find({}, { sort: { id: 1 } })).map((item) => item.id)).toEqual(['after', 'kept']);
    await second.close();
    const lines = await logLines(dataDir);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toHaveLength(2);
  });

  it('refuses to open a log with an unreadable line in the middle, naming the file and byte offset', async () => {
    await writeFile(join(dataDir, STORE_LOG_FILE), '{"c":"items","put":{"id":"a"}}\nnot json\n{"c":"items","put":{"id":"b"}}\n');
    const opening = createEmbeddedStore({ dataDir });
    await expect(opening).rejects.toBeInstanceOf(CorruptLogError);
    await expect(opening).rejects.toThrow(`${join(dataDir, STORE_LOG_FILE)} is corrupt at byte offset 31 (line 2)`);
  });

  it('writes changes to several collections as one log, and an atomic section as one line', async () => {
    const store = await createEmbeddedStore({ dataDir });
    await Promise.all([store.collection('a').insertOne({ id: '1' }), store.collection('b').insertOne({ id: '2' })]);
    await store.atomically(async (section) => {
      await section.collection('a').updateOne({ id: '1' }, { $set: { n: 1 } });
      await section.collection('b').deleteMany({ id: '2' });
      await section.collection('c').insertOne({ id: '3' });
    });
    await store.close();
    expect((await readdir(dataDir)).filter((name) => name !== 'LOCK')).toEqual([STORE_LOG_FILE]);
    const lines = (await logLines(dataDir)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      { c: 'a', put: { id: '1' } },
      { c: 'b', put: { id: '2' } },
      { group: [{ c: 'a', put: { id: '1', n: 1 } }, { c: 'b', del: '2' }, { c: 'c', put: { id: '3' } }] },
    ]);
  });

  it('keeps a write through the store itself out of an open section: only the section handle joins it', async () => {
    const store = await createEmbeddedStore({ dataDir });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sectionDone = false;
    const section = store
      .atomically(async (open) => {
        await open.collection('a').insertOne({ id: 'in-section' });
        await held;
        await open.atomically((nested) => nested.collection('b').insertOne({ id: 'nested' }));
      })
      .then(() => {
        sectionDone = true;
      });
    // Resolves on its own line while the section is still open.
    await store.collection('a').insertOne({ id: 'outside' });
    expect(sectionDone).toBe(false);
    release();
    await section;
    await store.close();
    const lines = (await logLines(dataDir)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([{ c: 'a', put: { id: 'outside' } }, { group: [{ c: 'a', put: { id: 'in-section' } }, { c: 'b', put: { id: 'nested' } }] }]);
  });

  it('keeps the log in memory order when sections and plain writes interleave on one document', async () => {
    const store = await createEmbeddedStore({ dataDir });
    const items = store.collection<{ id: string; n: number; tag?: string }>('items');
    await items.insertOne({ id: 'a', n: 0 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first section writes `a`, then waits; the second writes `a` on top of it and ends first.
    const first = store.atomically(async (section) => {
      await section.collection(items.name).updateOne({ id: 'a' }, { $inc: { n: 1 } });
      await held;
      await section.collection('history').insertOne({ id: 'a@1' });
    });
    let secondDone = false;
    const second = store
      .atomically(async (section) => {
        await section.collection(items.name).updateOne({ id: 'a' }, { $inc: { n: 1 } });
        await section.collection('history').insertOne({ id: 'a@2' });
      })
      .then(() => {
        secondDone = true;
      });
    let plainDone = false;
    const plain = items.updateOne({ id: 'a' }, { $set: { tag: 'plain' } }).then(() => {
      plainDone = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Both wrote over what the open first section wrote: they resolve with its line.
    expect({ secondDone, plainDone }).toEqual({ secondDone: false, plainDone: false });
    release();
    await Promise.all([first, second, plain]);
    await store.close();

    const lines = (await logLines(dataDir)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toEqual({ group: [{ c: 'items', put: { id: 'a', n: 2, tag: 'plain' } }, { c: 'history', put: { id: 'a@2' } }, { c: 'history', put: { id: 'a@1' } }] });
    const reopened = await createEmbeddedStore({ dataDir });
    expect(await reopened.collection('items').findById('a')).toEqual({ id: 'a', n: 2, tag: 'plain' });
    expect(await reopened.collection('history').count()).toBe(2);
    await reopened.close();
  });

  it('drops an atomic section whose line was torn by a crash: none of its writes survive', async () => {
    const store = await createEmbeddedStore({ dataDir });
    await store.collection('a').insertOne({ id: 'kept' });
    await store.close();
    await appendFile(join(dataDir, STORE_LOG_FILE), '{"group":[{"c":"a","put":{"id":"x"}},{"c":"b","put":{"id":"y"}},{"c":"c","pu');

    const reopened = await createEmbeddedStore({ dataDir });
    expect((await reopened.collection('a').find({})).map((item) => item.id)).toEqual(['kept']);
    expect(await reopened.collection('b').count()).toBe(0);
    await reopened.close();
  });

  it('converts a data directory with one log per collection into the single log, losing nothing', async () => {
    await writeFile(join(dataDir, 'items.jsonl'), '{"index":{"keys":{"email":1},"unique":true}}\n{"put":{"id":"1","email":"a@x"}}\n{"put":{"id":"2","email":"b@x"}}\n{"del":"2"}\n{"put":{"id":"1","email":"a@x","n":1}}\n{"put":{"id":"torn"');
    await writeFile(join(dataDir, `${encodeURIComponent('people.history')}.jsonl`), '{"put":{"id":"h1","entityId":"1"}}\n');

    const store = await createEmbeddedStore({ dataDir });
    expect((await readdir(dataDir)).sort()).toEqual(['LOCK', STORE_LOG_FILE]);
    expect(await store.collection('items').find({})).toEqual([{ id: '1', email: 'a@x', n: 1 }]);
    expect(await store.collection('people.history').find({})).toEqual([{ id: 'h1', entityId: '1' }]);
    await expect(store.collection('items').insertOne({ id: '3', email: 'a@x' })).rejects.toThrow(/duplicate/);
    await store.collection('items').insertOne({ id: '4', email: 'd@x' });
    await store.close();

    const reopened = await createEmbeddedStore({ dataDir });
    expect((await reopened.collection('items').find({}, { sort: { id: 1 } })).map((item) => item.id)).toEqual(['1', '4']);
    expect(await reopened.collection('people.history').count()).toBe(1);
    await reopened.close();
  });

  it('removes collection logs left by a conversion that crashed after writing the single log', async () => {
    await writeFile(join(dataDir, STORE_LOG_FILE), '{"c":"items","put":{"id":"new"}}\n');
    await writeFile(join(dataDir, 'items.jsonl'), '{"put":{"id":"old"}}\n');
    const store = await createEmbeddedStore({ dataDir });
    expect((await store.collection('items').find({})).map((item) => item.id)).toEqual(['new']);
    expect(await readdir(dataDir)).not.toContain('items.jsonl');
    await store.close();
  });

  it('compacts in the background: writes are acknowledged while a compaction waits for its snapshot, and all of them survive', async () => {
    const store = await createEmbeddedStore({ dataDir, fsync: false });
    const counters = store.collection('counters');
    await counters.insertOne({ id: 'c', n: 0 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // An open atomic section: a compaction's snapshot has to wait until it ends.
    const section = store.atomically(async (open) => {
      await open.collection('sections').insertOne({ id: 's1' });
      await held;
      await open.collection('sections').insertOne({ id: 's2' });
    });
    for (let i = 0; i < 3000; i += 1) await counters.updateOne({ id: 'c' }, { $inc: { n: 1 } });
    const grown = (await stat(join(dataDir, STORE_LOG_FILE))).size;
    release();
    await section;
    await store.close();
    expect((await stat(join(dataDir, STORE_LOG_FILE))).size).toBeLessThan(grown / 10);

    const reopened = await createEmbeddedStore({ dataDir });
    expect(await reopened.collection('counters').findById('c')).toEqual({ id: 'c', n: 3000 });
    expect((await reopened.collection('sections').find({}, { sort: { id: 1 } })).map((item) => item.id)).toEqual(['s1', 's2']);
    await reopened.close();
  });

  it('keeps a dropped collection dropped across a restart, a compaction and a backup, and a collection made again after its drop', async () => {
    const store = await createEmbeddedStore({ dataDir });
    const gone = store.collection('project-gone');
    await gone.ensureIndex({ keys: { name: 1 }, unique: true });
    await gone.insertMany([{ id: 'a', name: 'x' }, { id: 'b', name: 'y' }]);
    const again = store.collection('project-again');
    await again.insertOne({ id: 'old' });
    await store.collection('kept').insertOne({ id: 'k' });
    await store.dropCollection('project-gone');
    await store.dropCollection('project-again');
    await again.insertOne({ id: 'new' });
    expect(store.stats()).toMatchObject({ collections: 2, documents: 2 });
    const backup = await store.backup(join(dataDir, 'backups', 'one'));
    await store.close();
    expect((await logLines(dataDir)).some((line) => line.includes('"drop":true'))).toBe(true);

    const reopened = await createEmbeddedStore({ dataDir });
    expect(reopened.stats()).toMatchObject({ collections: 2, documents: 2 });
    expect(await reopened.collection('project-gone').find({})).toEqual([]);
    // The unique index went with it.
    await reopened.collection('project-gone').insertMany([{ id: 'c', name: 'x' }, { id: 'd', name: 'x' }]);
    expect(await reopened.collection('project-again').find({})).toEqual([{ id: 'new' }]);
    await reopened.close();
    // The backup, a snapshot, holds no line of the dropped collection at all.
    const backupLines = await logLines(backup.directory);
    expect(backupLines.filter((line) => line.includes('project-gone'))).toEqual([]);
    expect(backupLines.filter((line) => line.includes('project-again'))).toEqual(['{"c":"project-again","put":{"id":"new"}}']);
  });

  it('compacts a log dominated by dead lines and keeps the data', async () => {
    const store = await createEmbeddedStore({ dataDir, fsync: false });
    const counters = store.collection('counters');
    await counters.insertOne({ id: 'c', n: 0 });
    for (let i = 0; i < 3000; i += 1) await counters.updateOne({ id: 'c' }, { $inc: { n: 1 } });
    await store.close();
    // A compaction starts past 1000 lines and close waits for it: at least those 1000 lines became one.
    // How many lines written beside it remain depends on how fast it ran.
    expect((await logLines(dataDir)).length).toBeLessThan(3001 - 900);

    const reopened = await createEmbeddedStore({ dataDir });
    expect(await reopened.collection('counters').findById('c')).toEqual({ id: 'c', n: 3000 });
    await reopened.close();
  });

  it('compacts a log whose few dead lines outweigh its many live ones in bytes', async () => {
    // Many small live records (history, audit items, runs) and one large document written again
    // and again: dead lines never outnumber live ones, but dead bytes soon outweigh them all.
    const store = await createEmbeddedStore({ dataDir, fsync: false });
    await store.collection('records').insertMany(Array.from({ length: 3000 }, (_, n) => ({ id: `r${n}`, n })));
    const pages = store.collection('pages');
    await pages.insertOne({ id: 'big', body: 'x'.repeat(100_000), saved: 0 });
    for (let i = 1; i <= 500; i += 1) await pages.updateOne({ id: 'big' }, { $set: { saved: i } });
    await store.close();
    // 500 writes of 100 kB: 50 MB without compaction; rewritten past 16 MiB instead.
    const { size } = await stat(join(dataDir, STORE_LOG_FILE));
    expect(size).toBeLessThan(24 * 1024 * 1024);

    const reopened = await createEmbeddedStore({ dataDir });
    expect(await reopened.collection('pages').findById('big', { projection: { body: 0 } })).toEqual({ id: 'big', saved: 500 });
    expect(await reopened.collection('records').count({})).toBe(3000);
    await reopened.close();
  });
});
