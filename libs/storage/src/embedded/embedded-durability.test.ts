import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptLogError } from './collection-log';
import { createEmbeddedStore } from './embedded-store';

const fixture = fileURLToPath(new URL('./crash-writer.fixture.ts', import.meta.url));

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
    const before = await readFile(join(dataDir, 'items.jsonl'), 'utf8');
    await expect(items.insertOne({ id: '2' })).rejects.toThrow(/closed/);
    await expect(items.updateOne({ id: '1' }, { $set: { late: true } })).rejects.toThrow(/closed/);
    expect(await readFile(join(dataDir, 'items.jsonl'), 'utf8')).toBe(before);
  });

  it('refuses a second open of the same directory while the first is open', async () => {
    const store = await createEmbeddedStore({ dataDir });
    await expect(createEmbeddedStore({ dataDir })).rejects.toThrow(/already open/);
    await store.close();
    await (await createEmbeddedStore({ dataDir })).close();
  });

  it('loses no acknowledged write when the process is killed with SIGKILL mid-write', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged: string[] = [];
    let lastRevision = 0;
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
        for (const line of lines) {
          if (line.startsWith('ack ')) acknowledged.push(line.slice(4));
          if (line.startsWith('rev ')) lastRevision = Number(line.slice(4));
        }
        if (acknowledged.length >= 400 && lastRevision >= 50) resolve();
      });
    });
    child.removeAllListeners('exit');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const store = await createEmbeddedStore({ dataDir });
    const items = store.collection('items');
    const ids = new Set((await items.find({}, { projection: { id: 1 } })).map((item) => item.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    const counter = await store.collection('counters').findById('counter');
    expect(counter?.revision).toBeGreaterThanOrEqual(lastRevision);
    expect(counter?.n).toBe(counter?.revision);
    await store.close();
  }, 60_000);

  it('cuts off a torn last line and keeps appending after it', async () => {
    const first = await createEmbeddedStore({ dataDir });
    await first.collection('items').insertOne({ id: 'kept' });
    await first.close();
    await appendFile(join(dataDir, 'items.jsonl'), '{"put":{"id":"torn","half');

    const second = await createEmbeddedStore({ dataDir });
    await second.collection('items').insertOne({ id: 'after' });
    expect((await second.collection('items').find({}, { sort: { id: 1 } })).map((item) => item.id)).toEqual(['after', 'kept']);
    await second.close();
    const lines = (await readFile(join(dataDir, 'items.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toHaveLength(2);
  });

  it('refuses to open a log with an unreadable line in the middle', async () => {
    await writeFile(join(dataDir, 'items.jsonl'), '{"put":{"id":"a"}}\nnot json\n{"put":{"id":"b"}}\n');
    await expect(createEmbeddedStore({ dataDir })).rejects.toBeInstanceOf(CorruptLogError);
  });

  it('compacts a log dominated by dead lines and keeps the data', async () => {
    const store = await createEmbeddedStore({ dataDir, fsync: false });
    const counters = store.collection('counters');
    await counters.insertOne({ id: 'c', n: 0 });
    for (let i = 0; i < 3000; i += 1) await counters.updateOne({ id: 'c' }, { $inc: { n: 1 } });
    await store.close();
    const { size } = await stat(join(dataDir, 'counters.jsonl'));
    expect(size).toBeLessThan(1000 * 20);

    const reopened = await createEmbeddedStore({ dataDir });
    expect(await reopened.collection('counters').findById('c')).toEqual({ id: 'c', n: 3000 });
    await reopened.close();
  });
});
