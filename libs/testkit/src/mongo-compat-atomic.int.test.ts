import { randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackend } from './describe-with-backend';

interface Item {
  _id: string;
  revision: number;
  list: string[];
}

const WRITERS = 50;

/**
 * The MongoDB-compatible test server applies each write atomically, as MongoDB does per document:
 * FerretDB 1.24 alone updates by a query, then a write of the whole document (FerretDB issue
 * #3040), and two updates racing on one document both applied, the second over the first.
 */
describeWithBackend('mongo', 'MongoDB-compatible test server: one write at a time', ({ url }) => {
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    client = await MongoClient.connect(url, { maxPoolSize: WRITERS });
    db = client.db(`atomic_${randomUUID().slice(0, 8)}`);
  });

  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('lets exactly one of 50 concurrent updates guarded by the same revision win, round after round', async () => {
    const items = db.collection<Item>('guarded');
    for (let round = 0; round < 20; round += 1) {
      const id = `round-${round}`;
      await items.insertOne({ _id: id, revision: 0, list: [] });
      const answers = await Promise.all(
        Array.from({ length: WRITERS }, (_, writer) =>
          items.findOneAndUpdate({ _id: id, revision: 0 }, { $inc: { revision: 1 }, $push: { list: `writer-${writer}` } }, { returnDocument: 'after' }),
        ),
      );
      const winners = answers.filter((answer) => answer !== null);
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(await items.findOne({ _id: id }), `round ${round}`).toEqual(winners[0]);
    }
  });

  it('loses none of 50 concurrent pushes and pulls on one document', async () => {
    const items = db.collection<Item>('list');
    const kept = Array.from({ length: WRITERS / 2 }, (_, i) => `kept-${i}`);
    const pulled = Array.from({ length: WRITERS / 2 }, (_, i) => `pulled-${i}`);
    await items.insertOne({ _id: 'a', revision: 0, list: [...kept, ...pulled] });
    const pushed = kept.map((_, i) => `pushed-${i}`);
    await Promise.all([
      ...pulled.map((entry) => items.updateOne({ _id: 'a' }, { $pull: { list: entry } })),
      ...pushed.map((entry) => items.updateOne({ _id: 'a' }, { $push: { list: entry } })),
    ]);
    const stored = await items.findOne({ _id: 'a' });
    expect([...(stored?.list ?? [])].sort()).toEqual([...kept, ...pushed].sort());
  });

  it('runs writes while a getMore waits for new documents on a tailable cursor', async () => {
    const log = await db.createCollection<{ _id: string }>('log', { capped: true, size: 64 * 1024 });
    await log.insertOne({ _id: 'first' });
    // A first batch as large as batchSize keeps FerretDB's cursor open (a shorter one closes it).
    const cursor = log.find({}, { tailable: true, awaitData: true, maxAwaitTimeMS: 5_000, batchSize: 1 });
    try {
      expect((await cursor.next())?._id).toBe('first');
      // The cursor's next getMore waits up to maxAwaitTimeMS for a document that the write below adds.
      const next = cursor.next();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const startedAt = Date.now();
      await log.insertOne({ _id: 'second' });
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      expect((await next)?._id).toBe('second');
    } finally {
      await cursor.close();
    }
  });
});
