import { join } from 'node:path';
import { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer, type MongoCompatStorage } from './local-servers';

export interface BackendServers {
  urls: { mongo: string; nats: string; redis: string };
  /** Stops the servers started here (never the ones the environment named). */
  stop(): Promise<void>;
}

export interface BackendServerOptions {
  /**
   * Keeps each local server's data in `<dataDir>/mongo`, `nats` and `redis` (Redis with its
   * append-only file) across runs; without it every run starts empty and leaves nothing behind.
   */
  dataDir?: string;
  /** What the local MongoDB-compatible server stores in (SQLite unless given); ignored with `MONGO_URL`. */
  mongoStorage?: MongoCompatStorage;
}

/**
 * MongoDB, NATS and Redis for a program (not a test): `MONGO_URL`, `NATS_URL`, `REDIS_URL` when
 * set, else local servers on free loopback ports. When one of them cannot start, the others it
 * started are stopped before the error is thrown.
 */
export async function startBackendServers(env: NodeJS.ProcessEnv = process.env, options: BackendServerOptions = {}): Promise<BackendServers> {
  const owned: LocalServer[] = [];
  const dataDirOf = (name: string) => (options.dataDir ? join(options.dataDir, name) : undefined);
  const pick = async (given: string | undefined, start: () => Promise<LocalServer>) => {
    if (given) return given;
    const server = await start();
    owned.push(server);
    return server.url;
  };
  const stop = async () => void (await Promise.all(owned.map((server) => server.dispose())));
  const started = await Promise.allSettled([
    pick(env.MONGO_URL, () => startMongoCompatServer({ dataDir: dataDirOf('mongo'), storage: options.mongoStorage })),
    pick(env.NATS_URL, () => startNatsServer({ dataDir: dataDirOf('nats') })),
    pick(env.REDIS_URL, () => startRedisServer({ dataDir: dataDirOf('redis'), appendOnly: options.dataDir !== undefined })),
  ]);
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await stop();
    throw failure.reason;
  }
  const [mongo, nats, redis] = started.map((result) => (result as PromiseFulfilledResult<string>).value) as [string, string, string];
  return { urls: { mongo, nats, redis }, stop };
}
