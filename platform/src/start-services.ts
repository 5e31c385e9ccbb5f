import { startBackendServers } from '@platform/testkit/servers';
import { startLocalTopology } from './compose/local-topology';

/**
 * `pnpm start:services`: the microservice shape of docker-compose.yml as local processes, for a
 * developer without Docker. MONGO_URL, NATS_URL and REDIS_URL point at existing backends; without
 * them it starts local ones (FerretDB built from tools/mongo-compat, nats-server, redis-server).
 */
async function main(): Promise<void> {
  const backends = await startBackendServers();
  const { mongo, nats, redis } = backends.urls;
  const topology = await startLocalTopology({
    backendUrls: backends.urls,
    // Without PRINCIPAL_SECRET, startLocalTopology generates one and hands it to every process.
    variables: process.env.PRINCIPAL_SECRET ? { PRINCIPAL_SECRET: process.env.PRINCIPAL_SECRET } : {},
    extraEnvironment: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
    log: (line) => console.log(line),
  });
  console.log(`gateway ready at ${topology.gatewayUrl} (mongo ${mongo}, nats ${nats}, redis ${redis}); Ctrl-C stops everything`);
  const shutdown = async () => {
    await topology.stop();
    await backends.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
