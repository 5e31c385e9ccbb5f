/**
 * Child process for the crash test: writes as fast as it can to an embedded store and prints a
 * line for every write the store acknowledged, until the parent kills it with SIGKILL.
 */
import { guardedUpdate } from '../guarded-update';
import { createEmbeddedStore } from './embedded-store';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: crash-writer <dataDir>');
const store = await createEmbeddedStore({ dataDir });
const items = store.collection('items');
const counters = store.collection<{ id: string; revision: number; n: number }>('counters');
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

await Promise.all([insertLoop(0), insertLoop(1), insertLoop(2), insertLoop(3), counterLoop()]);
