import type { MongoCompatStorage } from '@platform/testkit/servers';

const STORAGES: readonly MongoCompatStorage[] = ['postgresql', 'sqlite'];

/**
 * What the benchmark's local MongoDB-compatible server stores in: `BENCH_MONGO_STORAGE`,
 * PostgreSQL by default (concurrent writers and filters in the database, like MongoDB; SQLite
 * takes one writer at a time and filters every document in FerretDB).
 */
export function benchMongoStorage(env: NodeJS.ProcessEnv = process.env): MongoCompatStorage {
  const given = env.BENCH_MONGO_STORAGE ?? 'postgresql';
  const storage = STORAGES.find((known) => known === given);
  if (!storage) throw new Error(`BENCH_MONGO_STORAGE must be one of ${STORAGES.join(', ')}, not "${given}"`);
  return storage;
}

/** Names the server that stood in for MongoDB, for the figures' section. */
export function describeMongoStandIn(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MONGO_URL) return `the server MONGO_URL named (${new URL(env.MONGO_URL).host})`;
  return benchMongoStorage(env) === 'postgresql'
    ? 'FerretDB 1.24 on a private PostgreSQL cluster (tools/mongo-compat -postgresql-url, no fsync)'
    : 'FerretDB 1.24 on SQLite (tools/mongo-compat, no fsync)';
}
