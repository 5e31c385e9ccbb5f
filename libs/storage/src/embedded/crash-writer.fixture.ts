/**
 * Child process for the crash test: writes as fast as it can to an embedded store and prints a
 * line for every write the store acknowledged, until the parent kills it with SIGKILL. Besides
 * single-collection writes it writes the way a service does: a document, its history entry and
 * an outbox event in one atomic section.
 */
import { guardedUpdate } from '../guarded-update';
import { createEmbeddedStore } from './embedded-store';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: crash-writer <dataDir>');
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
    await store.atomically(async () => {
      await entities.insertOne({ id, revision: 1, payload: 'y'.repeat(100) });
      await history.insertOne({ id: `${id}@1`, entityId: id, revision: 1 });
      await outbox.insertOne({ id: `${id}:created`, entityId: id });
    });
    process.stdout.write(`entity ${id}\n`);
  }
}

await Promise.all([insertLoop(0), insertLoop(1), insertLoop(2), insertLoop(3), counterLoop(), entityLoop(0), entityLoop(1)]);
