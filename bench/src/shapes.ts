import { randomBytes } from 'node:crypto';
import { startLocalTopology } from '@platform/platform';
import { startBackendServers, type BackendServers } from '@platform/testkit/servers';
import { benchMongoStorage, describeMongoStandIn } from './mongo-stand-in';
import { platformCommand, startPlatformProcess, type PlatformProcess } from './processes';
import { noteMongoStandIn } from './run-conditions';

type BackendUrls = BackendServers['urls'];

/** The microservice shape while it runs. */
export interface Microservices {
  gatewayUrl: string;
  /** Base URL of every platform service by compose name (its load balancer's when it has replicas). */
  serviceUrls: Map<string, string>;
  /** Base URL of every process: the compose name, or `name-1`, `name-2`, ... for replicas. */
  instanceUrls: Map<string, string>;
  backendUrls: BackendUrls;
  /** The MongoDB database all services of this run share, for fixtures written straight into it. */
  database: string;
}

/** One platform process (`SERVICES` in `environment` picks what it hosts) for the length of `run`. */
export async function withPlatformProcess<T>(environment: Record<string, string>, run: (platform: PlatformProcess) => Promise<T>): Promise<T> {
  const platform = await startPlatformProcess(environment);
  try {
    return await run(platform);
  } finally {
    await platform.stop();
  }
}

/**
 * MongoDB-compatible server, NATS and Redis (local ones unless MONGO_URL, NATS_URL, REDIS_URL name
 * them) for the length of `run`. The local MongoDB stand-in stores in PostgreSQL unless
 * `BENCH_MONGO_STORAGE=sqlite`; the section of the figures names it.
 */
export async function withBackends<T>(run: (urls: BackendUrls) => Promise<T>): Promise<T> {
  const backends = await startBackendServers(process.env, { mongoStorage: benchMongoStorage() });
  noteMongoStandIn(describeMongoStandIn());
  try {
    return await run(backends.urls);
  } finally {
    await backends.stop();
  }
}

/**
 * The services of docker-compose.yml as local processes on their own backends and a fresh
 * database, for the length of `run`; `environment` is added to every service's, `replicas` are
 * processes per service as `startLocalTopology` takes them (one each when absent).
 */
export function withMicroservices<T>(environment: Record<string, string>, run: (shape: Microservices) => Promise<T>, replicas?: Record<string, number>): Promise<T> {
  return withBackends(async (backendUrls) => {
    const database = `bench_${randomBytes(4).toString('hex')}`;
    const { args, cwd, environment: buildEnvironment } = await platformCommand();
    const command = { executable: process.execPath, args, cwd };
    const topology = await startLocalTopology({ backendUrls, extraEnvironment: { ...buildEnvironment, LOG_LEVEL: 'warn', MONGO_DATABASE: database, ...environment }, replicas, command });
    try {
      return await run({ gatewayUrl: topology.gatewayUrl, serviceUrls: topology.serviceUrls, instanceUrls: topology.instanceUrls, backendUrls, database });
    } finally {
      await topology.stop();
    }
  });
}
