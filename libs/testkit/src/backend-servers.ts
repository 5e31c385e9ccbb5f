import { join } from 'node:path';
import { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer, type MongoCompatStorage } from './local-servers';
import { restartDelayMs } from './restart-delay';

export interface BackendServers {
  urls: { mongo: string; nats: string; redis: string };
  /** Stops the servers started here (never the ones the environment named). */
  stop(): Promise<void>;
  /**
   * From now on a server that exits is not restarted: a stop has begun (Ctrl-C at a terminal
   * signals the backends too, and they exit before stop() reaches them).
   */
  holdRestarts(): void;
}

export interface BackendServerOptions {
  /**
   * Keeps each local server's data in `<dataDir>/mongo`, `nats` and `redis` (Redis with its
   * append-only file) across runs; without it every run starts empty and leaves nothing behind.
   */
  dataDir?: string;
  /** What the local MongoDB-compatible server stores in (SQLite unless given); ignored with `MONGO_URL`. */
  mongoStorage?: MongoCompatStorage;
  /**
   * Restarts a local server that exits unasked (on the same port, with the same data), after a
   * growing delay as compose's `restart: unless-stopped` does, and tells each crash and restart here
   * (`pnpm start:services`); unset, a crashed server stays down.
   */
  onBackendEvent?: (server: string, message: string) => void;
}

/**
 * MongoDB, NATS and Redis for a program (not a test): `MONGO_URL`, `NATS_URL`, `REDIS_URL` when
 * set, else local servers on free loopback ports. When one of them cannot start, the others it
 * started are stopped before the error is thrown.
 */
export async function startBackendServers(env: NodeJS.ProcessEnv = process.env, options: BackendServerOptions = {}): Promise<BackendServers> {
  const owned: LocalServer[] = [];
  let stopping = false;
  const dataDirOf = (name: string) => (options.dataDir ? join(options.dataDir, name) : undefined);
  /** What restarts `name` after a crash, after restartDelayMs of the failed attempts in a row. */
  const restarter = (name: string, server: () => LocalServer | undefined) => {
    const report = options.onBackendEvent;
    if (!report) return undefined;
    return (how: string) => {
      const attempt = async (crashesInARow: number): Promise<void> => {
        const delayMs = restartDelayMs(crashesInARow);
        if (stopping) return;
        report(name, `exited (${how}); restarting in ${delayMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (stopping) return;
        try {
          await server()?.restart();
          // A stop that came while it was starting found nothing running: this one is stopped here.
          if (stopping) return void (await server()?.stop());
          report(name, 'restarted');
        } catch (error) {
          how = (error as Error).message.split('\n', 1)[0]!;
          if (!stopping) await attempt(crashesInARow + 1);
        }
      };
      void attempt(1);
    };
  };
  const servers: Partial<Record<'mongo' | 'nats' | 'redis', LocalServer>> = {};
  const own = (name: 'mongo' | 'nats' | 'redis') => async (server: Promise<LocalServer>) => (servers[name] = await server);
  const pick = async (given: string | undefined, start: () => Promise<LocalServer>) => {
    if (given) return given;
    const server = await start();
    owned.push(server);
    return server.url;
  };
  const stop = async () => {
    stopping = true;
    await Promise.all(owned.map((server) => server.dispose()));
  };
  const started = await Promise.allSettled([
    pick(env.MONGO_URL, () => own('mongo')(startMongoCompatServer({ dataDir: dataDirOf('mongo'), storage: options.mongoStorage, onUnexpectedExit: restarter('mongo', () => servers.mongo) }))),
    pick(env.NATS_URL, () => own('nats')(startNatsServer({ dataDir: dataDirOf('nats'), onUnexpectedExit: restarter('nats', () => servers.nats) }))),
    pick(env.REDIS_URL, () => own('redis')(startRedisServer({ dataDir: dataDirOf('redis'), appendOnly: options.dataDir !== undefined, onUnexpectedExit: restarter('redis', () => servers.redis) }))),
  ]);
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await stop();
    throw failure.reason;
  }
  const [mongo, nats, redis] = started.map((result) => (result as PromiseFulfilledResult<string>).value) as [string, string, string];
  return { urls: { mongo, nats, redis }, stop, holdRestarts: () => void (stopping = true) };
}
