import { startMongoCompatServer, startNatsServer, startRedisServer, type LocalServer } from '@platform/testkit/servers';
import { startLocalTopology } from './compose/local-topology';

/**
 * `pnpm start:services`: the microservice shape of docker-compose.yml as local processes, for a
 * developer without Docker. MONGO_URL, NATS_URL and REDIS_URL point at existing backends; without
 * them it starts local ones (FerretDB built from tools/mongo-compat, nats-server, redis-server).
 */
async function main(): Promise<void> {
  const owned: LocalServer[] = [];
  const ensure = async (given: string | undefined, start: () => Promise<LocalServer>) => {
    if (given) return given;
    const server = await start();
    owned.push(server);
    return server.url;
  };
  const [mongo, nats, redis] = await Promise.all([
    ensure(process.env.MONGO_URL, startMongoCompatServer),
    ensure(process.env.NATS_URL, startNatsServer),
    ensure(process.env.REDIS_URL, startRedisServer),
  ]);
  const topology = await startLocalTopology({
    backendUrls: { mongo, nats, redis },
    variables: { PRINCIPAL_SECRET: process.env.PRINCIPAL_SECRET },
    extraEnvironment: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
    log: (line) => console.log(line),
  });
  console.log(`gateway ready at ${topology.gatewayUrl} (mongo ${mongo}, nats ${nats}, redis ${redis}); Ctrl-C stops everything`);
  const shutdown = async () => {
    await topology.stop();
    await Promise.all(owned.map((server) => server.dispose()));
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
