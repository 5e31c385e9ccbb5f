import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedUpdate } from './guarded-update';
import { DuplicateKeyError, InvalidModifierError, type Collection, type DocumentStore, type StoredDocument } from './port';

interface Item extends StoredDocument {
  name?: string;
  n?: number;
  tags?: unknown[];
  nested?: Record<string, unknown>;
  revision?: number;
}

/**
 * The one DocumentStore contract: every adapter must pass it unchanged. `open` gives a fresh,
 * empty store; each test works in its own collection.
 */
export function runDocumentStoreContract(adapter: string, open: () => Promise<{ store: DocumentStore; dispose: () => Promise<void> }>): void {
  describe(`DocumentStore contract: ${adapter}`, () => {
    let store: DocumentStore;
    let dispose: () => Promise<void>;
    const fresh = (): Collection<Item> => store.collection<Item>(`c${randomUUID().replaceAll('-', '')}`);

    beforeAll(async () => {
      ({ store, dispose } = await open());
    });
    afterAll(async () => {
      await dispose?.();
    });

    it('answers its kind and a ping', async () => {
      expect(['mongodb', 'embedded']).toContain(store.kind);
      expect(await store.ping()).toBe(true);
    });

    it('runs an atomic section over several collections, answering its result, without rolling back a failed one', async () => {
      const [first, second] = [fresh(), fresh()];
      const answer = await store.atomically(async (section) => {
        await section.collection(first.name).insertOne({ id: 'a', n: 1 });
        await section.collection(second.name).insertOne({ id: 'b', n: 2 });
        // A nested section joins the outer one.
        await section.atomically((nested) => nested.collection(first.name).updateOne({ id: 'a' }, { $inc: { n: 1 } }));
        return 'done';
      });
      expect(answer).toBe('done');
      expect([await first.findById('a'), await second.findById('b')]).toEqual([{ id: 'a', n: 2 }, { id: 'b', n: 2 }]);
      const failing = store.atomically(async (section) => {
        await section.collection(second.name).insertOne({ id: 'c' });
        await section.collection(first.name).insertOne({ id: 'a' });
      });
      await expect(failing).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await second.findById('c')).toEqual({ id: 'c' });
    });

    it('inserts, finds by id and refuses a duplicate id', async () => {
      const items = fresh();
      await items.insertOne({ id: 'a', name: 'first', nested: { deep: { x: 1 } } });
      expect(await items.findById('a')).toEqual({ id: 'a', name: 'first', nested: { deep: { x: 1 } } });
      expect(await items.findById('missing')).toBeNull();
      await expect(items.insertOne({ id: 'a', name: 'again' })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await items.findById('a'))?.name).toBe('first');
    });

    it('stops an ordered insertMany at the first duplicate', async () => {
      const items = fresh();
      await items.insertOne({ id: 'b' });
      await expect(items.insertMany([{ id: 'a' }, { id: 'b' }, { id: 'c' }])).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await items.find({}, { sort: { id: 1 } })).map((item) => item.id)).toEqual(['a', 'b']);
    });

    it('hands out copies: changing a result changes nothing stored', async () => {
      const items = fresh();
      await items.insertOne({ id: 'a', nested: { x: 1 } });
      const found = await items.findById('a');
      (found?.nested as Record<string, unknown>).x = 99;
      expect((await items.findById('a'))?.nested).toEqual({ x: 1 });
    });

    it('queries with MongoDB operators, dotted paths, sort, skip, limit and count', async () => {
      const items = fresh();
      await items.insertMany([
        { id: '1', name: 'ann', n: 5, tags: ['red', 'blue'], nested: { level: 2 } },
        { id: '2', name: 'bob', n: 1, tags: ['green'], nested: { level: 1 } },
        { id: '3', name: 'cid', n: 9, nested: { level: 2 } },
        { id: '4', name: 'dee', n: 5, tags: ['red'] },
      ]);
      const ids = (list: Item[]) => list.map((item) => item.id);
      expect(ids(await items.find({ n: { $gt: 4 } }, { sort: { id: 1 } }))).toEqual(['1', '3', '4']);
      expect(ids(await items.find({ 'nested.level': 2 }, { sort: { id: 1 } }))).toEqual(['1', '3']);
      expect(ids(await items.find({ tags: 'red' }, { sort: { id: 1 } }))).toEqual(['1', '4']);
      expect(ids(await items.find({ $or: [{ name: 'bob' }, { id: '3' }] }, { sort: { id: 1 } }))).toEqual(['2', '3']);
      expect(ids(await items.find({ tags: { $exists: false } }))).toEqual(['3']);
      expect(ids(await items.find({ id: { $in: ['4', '2', 'x'] } }, { sort: { id: -1 } }))).toEqual(['4', '2']);
      expect(ids(await items.find({}, { sort: { n: -1, id: 1 } }))).toEqual(['3', '1', '4', '2']);
      expect(ids(await items.find({}, { sort: { n: 1, id: 1 }, skip: 1, limit: 2 }))).toEqual(['1', '4']);
      expect((await items.findOne({ n: 5 }, { sort: { id: -1 } }))?.id).toBe('4');
      expect(await items.count({ n: 5 })).toBe(2);
      expect(await items.count()).toBe(4);
    });

    it('stops a bounded find after the document that passes its bytes, reading at least one, and says so', async () => {
      const items = fresh();
      // Ten documents of about 10 kB, in id order.
      const text = 'x'.repeat(10_000);
      await items.insertMany(Array.from({ length: 10 }, (_, index) => ({ id: `d${index}`, name: text, n: index })));
      const page = { sort: { id: 1 as const } };
      const cut = await items.findWithin({}, page, 25_000);
      expect(cut.documents.map((document) => document.id)).toEqual(['d0', 'd1', 'd2']);
      expect(cut.documents[2]).toEqual({ id: 'd2', name: text, n: 2 });
      expect(cut.stoppedByBytes).toBe(true);
      expect((await items.findWithin({}, page, 1)).documents.map((document) => document.id)).toEqual(['d0']);
      const whole = await items.findWithin({ n: { $gte: 5 } }, { ...page, projection: { n: 1 } }, 1_000_000);
      expect(whole).toEqual({ documents: [5, 6, 7, 8, 9].map((n) => ({ id: `d${n}`, n })), stoppedByBytes: false });
      const limited = await items.findWithin({}, { ...page, skip: 2, limit: 3 }, 1_000_000);
      expect(limited).toEqual({ documents: expect.any(Array), stoppedByBytes: false });
      expect(limited.documents.map((document) => document.id)).toEqual(['d2', 'd3', 'd4']);
      // The bound passed at the last match it could read: nothing stopped it.
      expect((await items.findWithin({ n: { $gte: 8 } }, page, 15_000)).stoppedByBytes).toBe(false);
    });

    it('projects by inclusion and exclusion, always keeping id', async () => {
      const items = fresh();
      await items.insertOne({ id: 'a', name: 'x', n: 1, nested: { secret: true } });
      expect(await items.findById('a', { projection: { nested: 0 } })).toEqual({ id: 'a', name: 'x', n: 1 });
      expect(await items.find({}, { projection: { name: 1 } })).toEqual([{ id: 'a', name: 'x' }]);
    });

    it('applies every supported update operator with MongoDB semantics', async () => {
      const items = fresh();
      await items.insertOne({ id: 'a', name: 'x', n: 10, tags: ['a', 'b', 'a'], nested: { keep: 1, gone: 2 }, low: 5, high: 5, old: 'v' } as Item);
      const after = await items.updateOne(
        { id: 'a' },
        {
          $set: { name: 'y', 'nested.added.deep': true },
          $unset: { 'nested.gone': '' },
          $inc: { n: 5, fresh: 2 },
          $mul: { high: 3 },
          $min: { low: 2 },
          $max: { 'nested.keep': 7 },
          $rename: { old: 'renamed' },
          $pull: { tags: 'a' },
        },
      );
      expect(after).toEqual({ id: 'a', name: 'y', n: 15, fresh: 2, tags: ['b'], nested: { keep: 7, added: { deep: true } }, low: 2, high: 15, renamed: 'v' });
      const pushed = await items.updateOne({ id: 'a' }, { $push: { tags: { $each: ['c', 'd'] } }, $addToSet: { set: 'one' } });
      expect(pushed?.tags).toEqual(['b', 'c', 'd']);
      const again = await items.updateOne({ id: 'a' }, { $addToSet: { set: 'one', tags: 'b' } });
      expect(again).toMatchObject({ set: ['one'], tags: ['b', 'c', 'd'] });
      const pulled = await items.updateOne({ id: 'a' }, { $pull: { tags: 'c' }, $pullAll: { set: ['one'] } });
      expect(pulled).toMatchObject({ tags: ['b', 'd'], set: [] });
      expect(await items.findById('a')).toEqual(pulled);
    });

    it('refuses unsupported, empty, id-changing and conflicting modifiers and changes nothing', async () => {
      const items = fresh();
      await items.insertOne({ id: 'a', n: 1 });
      for (const modifier of [{}, { $where: { n: 1 } }, { $set: { id: 'b' } }, { $set: { n: 2 }, $inc: { n: 1 } }, { $set: { nested: 1, 'nested.x': 2 } }, { $set: { 'a..b': 1 } }, { $set: { 'tags.$': 1 } }]) {
        await expect(items.updateOne({ id: 'a' }, modifier as never)).rejects.toBeInstanceOf(InvalidModifierError);
      }
      expect(await items.findById('a')).toEqual({ id: 'a', n: 1 });
    });

    it('answers null when nothing matches and upserts from the filter when asked', async () => {
      const items = fresh();
      expect(await items.updateOne({ id: 'x' }, { $set: { n: 1 } })).toBeNull();
      expect(await items.count()).toBe(0);
      expect(await items.updateOne({ id: 'x', name: 'seed' }, { $inc: { n: 1 } }, { upsert: true })).toEqual({ id: 'x', name: 'seed', n: 1 });
      expect(await items.updateOne({ id: 'x' }, { $inc: { n: 1 } }, { upsert: true })).toEqual({ id: 'x', name: 'seed', n: 2 });
    });

    it('updates and deletes many, answering counts', async () => {
      const items = fresh();
      await items.insertMany([{ id: '1', n: 1 }, { id: '2', n: 2 }, { id: '3', n: 3 }]);
      expect(await items.updateMany({ n: { $gte: 2 } }, { $set: { big: true } })).toBe(2);
      expect(await items.updateMany({ n: { $gte: 2 } }, { $set: { big: true } })).toBe(0);
      expect(await items.deleteMany({ big: true })).toBe(2);
      expect((await items.find({})).map((item) => item.id)).toEqual(['1']);
    });

    it('enforces unique indexes on insert and update, idempotently created', async () => {
      const items = fresh();
      await items.ensureIndex({ keys: { name: 1 }, unique: true });
      await items.ensureIndex({ keys: { name: 1 }, unique: true });
      await items.ensureIndex({ keys: { n: 1 } });
      await items.insertOne({ id: '1', name: 'ann' });
      await items.insertOne({ id: '2', name: 'bob' });
      await expect(items.insertOne({ id: '3', name: 'ann' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(items.updateOne({ id: '2' }, { $set: { name: 'ann' } })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await items.findById('2'))?.name).toBe('bob');
      await items.deleteMany({ id: '1' });
      await items.insertOne({ id: '3', name: 'ann' });
      expect(await items.count()).toBe(2);
    });

    it('answers equality queries on an indexed field as a scan would, through updates, arrays and deletes', async () => {
      const items = fresh();
      await items.insertMany([{ id: '1', name: 'x', n: 1 }, { id: '2', name: 'y', n: 2 }, { id: '3', tags: ['x', 'z'], n: 3 }, { id: '4', name: 'x', n: 4 }]);
      await items.ensureIndex({ keys: { name: 1, n: 1 } });
      await items.ensureIndex({ keys: { tags: 1 } });
      await items.insertOne({ id: '5', name: 'x', n: 5 });
      await items.updateOne({ id: '4' }, { $set: { name: 'y' } });
      await items.updateOne({ id: '2' }, { $set: { name: 'x' } });
      await items.deleteMany({ id: '1' });
      const ids = async (filter: Record<string, unknown>) => (await items.find(filter, { sort: { id: 1 } })).map((item) => item.id);
      expect(await ids({ name: 'x' })).toEqual(['2', '5']);
      expect(await ids({ name: { $eq: 'x' }, n: { $gt: 2 } })).toEqual(['5']);
      expect(await ids({ name: 'nobody' })).toEqual([]);
      expect(await ids({ tags: 'z' })).toEqual(['3']);
      expect(await ids({ tags: ['x', 'z'] })).toEqual(['3']);
      expect(await items.count({ name: 'y' })).toBe(1);
    });

    it('answers ranges, sorted pages and counts on compound indexes as a scan would, through updates and deletes', async () => {
      const indexed = fresh();
      const scanned = fresh();
      await indexed.ensureIndex({ keys: { group: 1, at: -1, id: -1 } });
      await indexed.ensureIndex({ keys: { at: 1 } });
      await indexed.ensureIndex({ keys: { tags: 1, at: 1 } });
      // A small deterministic generator: the same documents in both collections on every adapter.
      let seed = 7;
      const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      const atOf = () => [next(40), next(40), `s${next(5)}`, undefined][next(4) === 3 ? 2 + next(2) : next(2)];
      const documents = Array.from({ length: 120 }, (_, n) => {
        const at = atOf();
        return { id: `d${String(n).padStart(3, '0')}`, group: ['a', 'b', 'c'][next(3)], ...(at === undefined ? {} : { at }), ...(n % 7 === 0 ? { tags: ['x', `t${next(3)}`] } : {}) };
      });
      const filters: Array<Record<string, unknown>> = [
        { group: 'a' },
        { group: 'b', at: { $gt: 10, $lte: 30 } },
        { group: 'c', at: { $gte: 's1' } },
        { at: { $lt: 12 } },
        { at: { $gte: 5, $lt: 5 } },
        { $and: [{ group: 'a' }, { at: { $gt: 3 } }] },
        { $or: [{ at: { $gt: 30 } }, { at: 4, id: { $gt: 'd100' } }] },
        { group: { $in: ['a', 'c'] }, at: { $ne: 7 } },
        { at: { $exists: false } },
        { tags: 'x', at: { $gt: 10 } },
      ];
      for (const collection of [indexed, scanned]) {
        await collection.insertMany(documents.slice(0, 100));
        await collection.insertMany(documents.slice(100));
        // Reading first builds the indexes, so the writes below must keep them current.
        for (const filter of filters) await collection.count(filter);
        for (let n = 0; n < 120; n += 9) await collection.updateOne({ id: `d${String(n).padStart(3, '0')}` }, { $set: { at: (n * 13) % 40, group: 'b' } });
        // Writes that leave every indexed field as it was must still reach what the indexes hand out.
        for (let n = 0; n < 120; n += 4) await collection.updateOne({ id: `d${String(n).padStart(3, '0')}` }, { $set: { note: `n${n}` } });
        await collection.deleteMany({ at: { $gte: 35, $lt: 38 } });
      }
      const sorts = [{ at: 1, id: 1 }, { at: -1, id: -1 }, { group: 1, at: -1, id: -1 }, { at: -1, id: 1 }] as const;
      for (const filter of filters) {
        expect(await indexed.count(filter), JSON.stringify(filter)).toBe(await scanned.count(filter));
        for (const sort of sorts) {
          for (const page of [{}, { skip: 5, limit: 3 }]) {
            const read = (collection: Collection<Item>) => collection.find(filter, { sort, ...page });
            expect(await read(indexed), `${JSON.stringify(filter)} ${JSON.stringify(sort)} ${JSON.stringify(page)}`).toEqual(await read(scanned));
          }
        }
      }
    });

    it('drops a collection with its documents and indexes, leaving the others and the handles taken before', async () => {
      const [dropped, kept] = [fresh(), fresh()];
      await dropped.ensureIndex({ keys: { name: 1 }, unique: true });
      await dropped.insertMany([{ id: 'a', name: 'x' }, { id: 'b', name: 'y' }]);
      await kept.insertOne({ id: 'a', name: 'x' });

      await store.dropCollection(dropped.name);
      expect(await dropped.count()).toBe(0);
      expect(await store.collection<Item>(dropped.name).find({})).toEqual([]);
      expect(await kept.find({})).toEqual([{ id: 'a', name: 'x' }]);
      // The handle still works: a write makes the collection anew, without the old unique index.
      await dropped.insertMany([{ id: 'c', name: 'same' }, { id: 'd', name: 'same' }]);
      expect(await dropped.find({}, { sort: { id: 1 } })).toEqual([{ id: 'c', name: 'same' }, { id: 'd', name: 'same' }]);

      // Dropping again, or a collection that never existed, is no error.
      await store.dropCollection(dropped.name);
      await store.dropCollection(dropped.name);
      await store.dropCollection(fresh().name);
      expect(await dropped.count()).toBe(0);
    });

    it('refuses a unique index over existing duplicates', async () => {
      const items = fresh();
      await items.insertMany([{ id: '1', name: 'same' }, { id: '2', name: 'same' }]);
      await expect(items.ensureIndex({ keys: { name: 1 }, unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    describe('guarded update', () => {
      const change = { userId: 'u1', note: 'edit' };

      it('applies the modifier, bumps the revision, stamps updatedAt and appends the change', async () => {
        const items = fresh();
        await items.insertOne({ id: 'a', revision: 0, name: 'x', _outbox: [] } as Item);
        const result = await guardedUpdate(items, { id: 'a', expectedRevision: 0, modifier: { $set: { name: 'y' } }, change, now: 1234 });
        expect(result).toEqual({ status: 'updated', document: { id: 'a', revision: 1, name: 'y', updatedAt: 1234, _outbox: [{ ...change, revision: 1 }] } });
      });

      it('reports a conflict with the current document, and a missing one', async () => {
        const items = fresh();
        await items.insertOne({ id: 'a', revision: 3, name: 'x', _outbox: [] } as Item);
        const stale = await guardedUpdate(items, { id: 'a', expectedRevision: 2, modifier: { $set: { name: 'y' } }, change, now: 1 });
        expect(stale).toEqual({ status: 'conflict', current: { id: 'a', revision: 3, name: 'x', _outbox: [] } });
        expect(await guardedUpdate(items, { id: 'nope', expectedRevision: 0, modifier: { $set: { name: 'y' } }, change, now: 1 })).toEqual({ status: 'not-found' });
      });

      it('refuses a modifier that writes the fields it owns', async () => {
        const items = fresh();
        await items.insertOne({ id: 'a', revision: 0, _outbox: [] } as Item);
        for (const field of ['revision', 'updatedAt', '_outbox', 'id']) {
          await expect(guardedUpdate(items, { id: 'a', expectedRevision: 0, modifier: { $set: { [field]: 5 } }, change, now: 1 })).rejects.toBeInstanceOf(InvalidModifierError);
        }
        expect((await items.findById('a'))?.revision).toBe(0);
      });

      it('lets exactly one of 50 concurrent updates with the same expected revision win', async () => {
        const items = fresh();
        await items.insertOne({ id: 'a', revision: 0, n: 0, _outbox: [] } as Item);
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => guardedUpdate(items, { id: 'a', expectedRevision: 0, modifier: { $inc: { n: 1 } }, change: { writer: i }, now: i })),
        );
        expect(results.filter((result) => result.status === 'updated')).toHaveLength(1);
        expect(results.filter((result) => result.status === 'conflict')).toHaveLength(49);
        const stored = (await items.findById('a')) as Item & { _outbox: unknown[] };
        expect(stored).toMatchObject({ revision: 1, n: 1 });
        expect(stored._outbox).toHaveLength(1);
      });
    });
  });
}
