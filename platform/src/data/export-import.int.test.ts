import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createEmbeddedStore, createMongoStore, type DocumentStore } from '@platform/storage';
import { describeWithBackend } from '@platform/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backUpEmbeddedStore } from './back-up';
import { MANIFEST_FILE } from './export-manifest';
import { exportStore } from './export-store';
import { importStore } from './import-store';
import { Progress } from './progress';

const silent = new Progress('test', { isTTY: false } as NodeJS.WriteStream);
const cli = (name: string) => fileURLToPath(new URL(`./${name}-cli.ts`, import.meta.url));
const runCli = (name: string, args: string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', cli(name), ...args], { env: { ...process.env, MONGO_URL: '', ...env }, encoding: 'utf8' });

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'export-import-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Documents, their history, an entity with a pending outbox entry, and a unique index. */
async function seed(store: DocumentStore): Promise<void> {
  const users = store.collection('users');
  await users.ensureIndex({ keys: { email: 1 }, unique: true });
  await users.insertMany(Array.from({ length: 2500 }, (_, i) => ({ id: `u${i}`, email: `u${i}@example.org`, profile: { name: `User ${i}`, tags: ['a', i] } })));
  await store.collection('p1.notes').insertOne({ id: 'n1', revision: 2, title: 'Hello', _outbox: [{ revision: 2, kind: 'updated' }] });
  await store.collection('p1.notes.history').insertMany([
    { id: 'n1@1', entityId: 'n1', revision: 1 },
    { id: 'n1@2', entityId: 'n1', revision: 2 },
  ]);
}

async function contents(store: DocumentStore, names: string[]): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {};
  for (const name of names) all[name] = await store.collection(name).find({}, { sort: { id: 1 } });
  return all;
}

const NAMES = ['users', 'p1.notes', 'p1.notes.history'];

describe('export and import (embedded)', () => {
  it('exports a running store as NDJSON with a manifest and imports it into an empty embedded store unchanged', async () => {
    const source = await createEmbeddedStore({ dataDir: join(root, 'data'), controlSocket: true });
    await seed(source);
    const manifest = await exportStore(join(root, 'export'), (scratch) => backUpEmbeddedStore(join(root, 'data'), scratch), silent);
    expect(manifest.collections.map(({ name, documents, indexes }) => ({ name, documents, indexes }))).toEqual([
      { name: 'p1.notes', documents: 1, indexes: [] },
      { name: 'p1.notes.history', documents: 2, indexes: [] },
      { name: 'users', documents: 2500, indexes: [{ keys: { email: 1 }, unique: true }] },
    ]);
    expect((await readdir(join(root, 'export'))).sort()).toEqual([MANIFEST_FILE, 'p1.notes.history.ndjson', 'p1.notes.ndjson', 'users.ndjson']);
    expect((await readFile(join(root, 'export', 'p1.notes.ndjson'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { id: 'n1', revision: 2, title: 'Hello', _outbox: [{ revision: 2, kind: 'updated' }] },
    ]);

    const target = await createEmbeddedStore({ dataDir: join(root, 'target') });
    expect(await importStore(join(root, 'export'), target, silent)).toEqual({ collections: 3, documents: 2503 });
    expect(await contents(target, NAMES)).toEqual(await contents(source, NAMES));
    await expect(target.collection('users').insertOne({ id: 'dup', email: 'u7@example.org' })).rejects.toThrow(/duplicate/);
    await source.close();
    await target.close();
  });

  it('refuses a target that already holds documents of an exported collection, changing nothing', async () => {
    const source = await createEmbeddedStore({ dataDir: join(root, 'data') });
    await seed(source);
    await source.close();
    await exportStore(join(root, 'export'), (scratch) => backUpEmbeddedStore(join(root, 'data'), scratch), silent);
    const target = await createEmbeddedStore({ dataDir: join(root, 'target') });
    await target.collection('p1.notes.history').insertOne({ id: 'mine' });
    await expect(importStore(join(root, 'export'), target, silent)).rejects.toThrow('the target already holds documents in p1.notes.history: import into an empty store');
    expect(await target.collection('users').count()).toBe(0);
    expect(await target.collection('p1.notes.history').count()).toBe(1);
    await target.close();
  });

  it('names the manifest field or the file and line that is wrong', async () => {
    const target = await createEmbeddedStore({ dataDir: join(root, 'target') });
    await rm(join(root, 'export'), { recursive: true, force: true });
    await writeFile(join(root, MANIFEST_FILE), JSON.stringify({ format: 'platform-ndjson', version: 1, exportedAt: 'now', collections: [{ name: 'a', file: '../x.ndjson', documents: 1, indexes: [] }] }));
    await expect(importStore(root, target, silent)).rejects.toThrow(/collections\.0\.file/);
    await writeFile(join(root, MANIFEST_FILE), JSON.stringify({ format: 'platform-ndjson', version: 1, exportedAt: 'now', collections: [{ name: 'a', file: 'a.ndjson', documents: 2, indexes: [] }] }));
    await writeFile(join(root, 'a.ndjson'), '{"id":"1"}\n{"id":2}\n');
    await expect(importStore(root, target, silent)).rejects.toThrow('a.ndjson line 2: a document needs a string id');
    await target.close();
  });

  it('refuses an export directory that is not empty', async () => {
    await writeFile(join(root, 'something'), 'x');
    await expect(exportStore(root, () => Promise.reject(new Error('not reached')), silent)).rejects.toThrow(`the export directory ${root} is not empty`);
  });
});

describeWithBackend('mongo', 'export and import into MongoDB', ({ url }) => {
  it('pnpm data:export then pnpm data:import with MONGO_URL loads every document and unique index into MongoDB', async () => {
    const source = await createEmbeddedStore({ dataDir: join(root, 'data') });
    await seed(source);
    const expected = await contents(source, NAMES);
    await source.close();

    const exported = await runCli('export', ['export'], { DATA_DIR: join(root, 'data'), INIT_CWD: root });
    expect(exported.stdout).toContain('exported 2503 documents in 3 collections');
    const database = `import_${randomUUID().slice(0, 8)}`;
    const imported = await runCli('import', [join(root, 'export')], { MONGO_URL: url, MONGO_DATABASE: database, INIT_CWD: root });
    expect(imported.stdout).toContain(`imported 2503 documents in 3 collections into MongoDB database ${database}`);

    const mongo = await createMongoStore({ url, database });
    try {
      expect(await contents(mongo, NAMES)).toEqual(expected);
      await expect(mongo.collection('users').insertOne({ id: 'dup', email: 'u7@example.org' })).rejects.toThrow(/duplicate/);
    } finally {
      for (const name of NAMES) await mongo.collection(name).deleteMany({});
      await mongo.close();
    }
  }, 120_000);
});
