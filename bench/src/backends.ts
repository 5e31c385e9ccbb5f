import { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer } from '@platform/testkit/servers';

export interface BenchBackends {
  urls: { mongo: string; nats: string; redis: string };
  stop(): Promise<void>;
}

/** Real backends for the microservice shape: given URLs, else local servers on loopback. */
export async function startBenchBackends(): Promise<BenchBackends> {
  const owned: LocalServer[] = [];
  const pick = async (given: string | undefined, start: () => Promise<LocalServer>) => {
    if (given) return given;
    const server = await start();
    owned.push(server);
    return server.url;
  };
  const [mongo, nats, redis] = await Promise.all([
    pick(process.env.MONGO_URL, startMongoCompatServer),
    pick(process.env.NATS_URL, startNatsServer),
    pick(process.env.REDIS_URL, startRedisServer),
  ]);
  return { urls: { mongo, nats, redis }, stop: async () => void (await Promise.all(owned.map((s) => s.dispose()))) };
}
