/**
 * Child process for the crash test: writes as fast as it can to an embedded store and prints a
 * line for every write the store acknowledged, until the parent kills it with SIGKILL. Besides
 * single-collection writes it writes the way a service does: a document, its history entry and
 * an outbox event in one atomic section, and sections that interleave on shared documents (each
 * a guarded update and its history record, with plain writes emptying the same documents'
 * outboxes in between). With `overwrites` it mostly rewrites a few documents, so compactions run
 * while it is killed.
 */
import { guardedUpdate } from '../guarded-update';
import { createEmbeddedStore } from './embedded-store';

const [dataDir, mode = 'mixed'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: crash-writer <dataDir> [mixed|overwrites]');
const store = await createEmbeddedStore({ dataDir });
const items = store.collection('items');
const counters = store.collection<{ id: string; revision: number; n: number }>('counters');
const entities = store.collection('entities');
const history = store.collection('entities.history');
const outbox = store.collection('outbox');
await counters.insertOne({ id: 'counter', revision: 0, n: 0 });
process.stdout.write('started\n');

async function insertLoop(writer: number): Promise<void> {
  for (let i = 0; ; i += 1) {
    const id = `w${writer}-${i}`;
    await items.insertOne({ id, writer, i, payload: 'x'.repeat(200) });
    process.stdout.write(`ack ${id}\n`);
  }
}

async function counterLoop(): Promise<void> {
  for (let revision = 0; ; revision += 1) {
    const result = await guardedUpdate(counters, { id: 'counter', expectedRevision: revision, modifier: { $inc: { n: 1 } }, change: {}, now: revision });
    if (result.status !== 'updated') throw new Error(`counter update ${revision} failed: ${result.status}`);
    process.stdout.write(`rev ${result.document.revision}\n`);
  }
}

async function entityLoop(writer: number): Promise<void> {
  for (let i = 0; ; i += 1) {
    const id = `e${writer}-${i}`;
    await store.atomically(async (section) => {
      await section.collection(entities.name).insertOne({ id, revision: 1, payload: 'y'.repeat(100) });
      await section.collection(history.name).insertOne({ id: `${id}@1`, entityId: id, revision: 1 });
      await section.collection(outbox.name).insertOne({ id: `${id}:created`, entityId: id });
    });
    process.stdout.write(`entity ${id}\n`);
  }
}

/** Documents several section loops update at once, each revision with its history record. */
const SHARED_DOCUMENTS = 3;
const shared = store.collection<{ id: string; revision: number; n: number }>('shared');
const sharedHistory = store.collection('shared.history');
for (let index = 0; index < SHARED_DOCUMENTS; index += 1) await shared.insertOne({ id: `s${index}`, revision: 0, n: 0 });

/**
 * Guarded updates of the shared documents in atomic sections that may yield between the update
 * and its history record, so other sections read and update the same document in between.
 */
async function sharedLoop(): Promise<void> {
  for (let i = 0; ; i += 1) {
    const id = `s${Math.floor(Math.random() * SHARED_DOCUMENTS)}`;
    const revision = await store.atomically(async (section) => {
      const current = await shared.findById(id);
      const result = await guardedUpdate(section.collection<{ id: string; revision: number; n: number }>(shared.name), { id, expectedRevision: current?.revision ?? 0, modifier: { $inc: { n: 1 } }, change: {}, now: i });
      if (result.status !== 'updated') return undefined;
      // Sections of different lengths, so a later one often ends before an earlier one.
      for (let turn = Math.floor(Math.random() * 3); turn > 0; turn -= 1) await new Promise<void>((resolve) => setImmediate(resolve));
      await section.collection(sharedHistory.name).insertOne({ id: `${id}@${result.document.revision}`, entityId: id, revision: result.document.revision });
      return result.document.revision;
    });
    if (revision !== undefined) process.stdout.write(`shared ${id} ${revision}\n`);
  }
}

/** Plain writes to the shared documents while sections hold them: emptying their outboxes. */
async function outboxLoop(): Promise<void> {
  for (let i = 0; ; i += 1) {
    const id = `s${i % SHARED_DOCUMENTS}`;
    const current = (await shared.findById(id)) as { _outbox?: unknown[] } | null;
    const [first] = current?._outbox ?? [];
    if (first) await shared.updateOne({ id }, { $pull: { _outbox: first } });
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Overwrites one document again and again: dead lines pile up and compaction runs in the background. */
async function overwriteLoop(writer: number): Promise<void> {
  const hot = store.collection<{ id: string; n: number }>('hot');
  const id = `hot${writer}`;
  await hot.insertOne({ id, n: 0 });
  for (let n = 1; ; n += 1) {
    await hot.updateOne({ id }, { $set: { n, payload: 'z'.repeat(200) } });
    process.stdout.write(`hot ${id} ${n}\n`);
  }
}

if (mode === 'overwrites') await Promise.all([overwriteLoop(0), overwriteLoop(1), overwriteLoop(2), overwriteLoop(3)]);
else await Promise.all([insertLoop(0), insertLoop(1), insertLoop(2), insertLoop(3), counterLoop(), entityLoop(0), entityLoop(1), sharedLoop(), sharedLoop(), sharedLoop(), outboxLoop()]);
