import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { startMongoCompatServer } from './local-servers';
import { hasPostgresServer } from './postgres-cluster';

/** The PostgreSQL storage is for `pnpm bench`; CI and machines without PostgreSQL skip this, by name. */
const describeWithPostgres = hasPostgresServer() ? describe : describe.skip;

describeWithPostgres('mongo-compat server on PostgreSQL [needs Debian postgresql]', () => {
  it('stores in PostgreSQL, takes concurrent writers, keeps data across a restart and stops its cluster on dispose', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mongo-compat-postgresql-'));
    const server = await startMongoCompatServer({ dataDir, storage: 'postgresql' });
    let client = await MongoClient.connect(server.url);
    try {
      const documents = client.db('probe').collection<{ _id: string; owner: string; count: number }>('documents');
      await documents.createIndex({ owner: 1 });
      await documents.insertMany(Array.from({ length: 40 }, (_, i) => ({ _id: `d${i}`, owner: `u${i % 4}`, count: 0 })));

      // SQLite takes one writer at a time and answers the others "database is locked".
      await Promise.all(Array.from({ length: 40 }, (_, i) => documents.updateOne({ _id: `d${i}` }, { $inc: { count: 1 } })));
      expect(await documents.countDocuments({ count: 1 })).toBe(40);

      // PostgreSQL plans the query (SQLite's plan has no "Node Type") and filters in the database.
      const plan = (await documents.find({ owner: 'u1' }).explain()) as { queryPlanner: { Plan: Record<string, unknown> } };
      expect(plan.queryPlanner.Plan['Node Type']).toBeTypeOf('string');
      expect(await documents.countDocuments({ owner: 'u1' })).toBe(10);

      await client.close();
      await server.restart();
      client = await MongoClient.connect(server.url);
      expect(await client.db('probe').collection('documents').countDocuments({ count: 1 })).toBe(40);
      await client.close();
      await server.dispose();
      // A running PostgreSQL keeps postmaster.pid in its cluster directory.
      await expect(access(join(dataDir, 'postgresql', 'postmaster.pid'))).rejects.toThrow();
    } finally {
      await client.close();
      await server.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
