import { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer } from '../../libs/testkit/src/servers';

export interface Backends {
  mongo: LocalServer;
  nats: LocalServer;
  redis: LocalServer;
  dispose(): Promise<void>;
}

/**
 * The three backends on loopback, each one killable and restartable on its port with its data.
 * Redis keeps an append-only file, as docker-compose.yml runs it: the sessions must survive a
 * killed Redis.
 */
export async function startBackends(): Promise<Backends> {
  const [mongo, nats, redis] = await Promise.all([startMongoCompatServer(), startNatsServer(), startRedisServer({ appendOnly: true })]);
  return { mongo, nats, redis, dispose: async () => void (await Promise.all([mongo, nats, redis].map((server) => server.dispose()))) };
}
