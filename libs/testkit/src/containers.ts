/**
 * Real backends in containers, for machines with a Docker engine. Loaded lazily so machines
 * without Docker never pay for the testcontainers import.
 */
export interface ContainerBackend {
  url: string;
  stop(): Promise<void>;
}

/** True when a container runtime answers within a few seconds. */
export async function dockerAvailable(): Promise<boolean> {
  if (process.env.TESTKIT_NO_DOCKER === '1') return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const probe = getContainerRuntimeClient().then(() => true);
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000).unref());
    return await Promise.race([probe, timeout]);
  } catch {
    return false;
  }
}

export async function startMongoContainer(): Promise<ContainerBackend> {
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer('mongo:7').start();
  // The replica-set connection string; directConnection because the member advertises its container host.
  return { url: `${container.getConnectionString()}?directConnection=true`, stop: async () => void (await container.stop()) };
}

export async function startRedisContainer(): Promise<ContainerBackend> {
  const { RedisContainer } = await import('@testcontainers/redis');
  const container = await new RedisContainer('redis:7').start();
  return { url: container.getConnectionUrl(), stop: async () => void (await container.stop()) };
}

export async function startNatsContainer(): Promise<ContainerBackend> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('nats:2.10')
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  return { url: `nats://${container.getHost()}:${container.getMappedPort(4222)}`, stop: async () => void (await container.stop()) };
}
