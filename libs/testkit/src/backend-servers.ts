import { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer } from './local-servers';

export interface BackendServers {
  urls: { mongo: string; nats: string; redis: string };
  /** Stops the servers started here (never the ones the environment named). */
  stop(): Promise<void>;
}

/**
 * MongoDB, NATS and Redis for a program (not a test): `MONGO_URL`, `NATS_URL`, `REDIS_URL` when
 * set, else local servers on free loopback ports.
 */
export async function startBackendServers(env: NodeJS.ProcessEnv = process.env): Promise<BackendServers> {
  const owned: LocalServer[] = [];
  const pick = async (given: string | undefined, start: () => Promise<LocalServer>) => {
    if (given) return given;
    const server = await start();
    owned.push(server);
    return server.url;
  };
  const [mongo, nats, redis] = await Promise.all([
    pick(env.MONGO_URL, startMongoCompatServer),
    pick(env.NATS_URL, startNatsServer),
    pick(env.REDIS_URL, startRedisServer),
  ]);
  return { urls: { mongo, nats, redis }, stop: async () => void (await Promise.all(owned.map((server) => server.dispose()))) };
}
