import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DocumentStore } from '../port';
import { createEmbeddedStore } from './embedded-store';

let dataDir: string;
let store: DocumentStore;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'embedded-lookups-'));
  store = await createEmbeddedStore({ dataDir });
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Equalities on any field of a compound index narrow the candidates; the answers must equal a full scan's. */
it('answers equalities on non-leading index fields, in a top-level $and too, and follows updates and deletes', async () => {
  const items = store.collection('trail');
  await items.ensureIndex({ keys: { projectId: 1, typeId: 1, at: -1 } });
  await items.insertMany(Array.from({ length: 60 }, (_, n) => ({ id: `i${n}`, projectId: n % 2 ? 'p1' : 'p2', typeId: `t${n % 3}`, at: n })));
  const ids = async (filter: Record<string, unknown>) => (await items.find(filter, { sort: { at: 1 } })).map((item) => item.id);
  const expected = (keep: (n: number) => boolean) => Array.from({ length: 60 }, (_, n) => n).filter(keep).map((n) => `i${n}`);

  expect(await ids({ typeId: 't1' })).toEqual(expected((n) => n % 3 === 1));
  expect(await ids({ $and: [{ projectId: 'p1' }, { typeId: 't2' }, { at: { $gte: 30 } }] })).toEqual(expected((n) => n % 2 === 1 && n % 3 === 2 && n >= 30));
  expect(await items.count({ projectId: 'p2', typeId: { $eq: 't0' } })).toBe(expected((n) => n % 2 === 0 && n % 3 === 0).length);
  expect(await ids({ typeId: 'none' })).toEqual([]);

  await items.updateOne({ id: 'i1' }, { $set: { typeId: 't2' } });
  await items.deleteMany({ id: 'i4' });
  expect(await ids({ typeId: 't1' })).toEqual(expected((n) => n % 3 === 1 && n !== 1 && n !== 4));
  expect((await ids({ typeId: 't2' }))[0]).toBe('i1');
});
