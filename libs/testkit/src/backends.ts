import { dockerAvailable, startMongoContainer, startNatsContainer, startRedisContainer } from './containers';
import { startMongoCompatServer, startNatsServer, startRedisServer } from './local-servers';
import { hasExecutable } from './processes';

export type BackendKind = 'mongo' | 'nats' | 'redis';

/** What the global setup hands to tests: a URL per backend, or why there is none. */
export type BackendReport = Record<BackendKind, { url: string; source: string; reason?: undefined } | { url?: undefined; source?: undefined; reason: string }>;

const envVariable: Record<BackendKind, string> = { mongo: 'MONGO_URL', nats: 'NATS_URL', redis: 'REDIS_URL' };

interface Started {
  url: string;
  source: string;
  stop(): Promise<void>;
}

const localBinary: Record<BackendKind, { executable: string; start: () => Promise<{ url: string; dispose(): Promise<void> }> }> = {
  mongo: { executable: 'go', start: startMongoCompatServer },
  nats: { executable: 'nats-server', start: startNatsServer },
  redis: { executable: 'redis-server', start: startRedisServer },
};

const container: Record<BackendKind, () => Promise<{ url: string; stop(): Promise<void> }>> = {
  mongo: startMongoContainer,
  nats: startNatsContainer,
  redis: startRedisContainer,
};

/**
 * Finds a backend in the agreed order: an explicit URL in the environment, else a container when a
 * Docker engine answers, else a local binary on a free loopback port. Throws with the reasons when
 * none can be had.
 */
export async function acquireBackend(kind: BackendKind, useDocker: boolean): Promise<Started> {
  const explicit = process.env[envVariable[kind]];
  if (explicit) return { url: explicit, source: `${envVariable[kind]}`, stop: async () => {} };
  const reasons: string[] = [];
  if (useDocker) {
    try {
      const started = await container[kind]();
      return { url: started.url, source: 'testcontainers', stop: started.stop };
    } catch (error) {
      reasons.push(`container failed: ${(error as Error).message}`);
    }
  } else {
    reasons.push('no Docker engine');
  }
  const binary = localBinary[kind];
  if (!(await hasExecutable(binary.executable))) {
    reasons.push(`no ${binary.executable} on PATH`);
    throw new Error(`${kind} unavailable (${envVariable[kind]} unset; ${reasons.join('; ')})`);
  }
  try {
    const server = await binary.start();
    return { url: server.url, source: 'local binary', stop: server.dispose };
  } catch (error) {
    reasons.push(`local server failed: ${(error as Error).message}`);
    throw new Error(`${kind} unavailable (${reasons.join('; ')})`);
  }
}

/** Starts every backend the run may need, in parallel, and reports what it got. */
export async function acquireAllBackends(): Promise<{ report: BackendReport; stopAll(): Promise<void> }> {
  const needsDocker = (Object.keys(envVariable) as BackendKind[]).some((kind) => !process.env[envVariable[kind]]);
  const useDocker = needsDocker && (await dockerAvailable());
  const kinds: BackendKind[] = ['mongo', 'nats', 'redis'];
  const results = await Promise.allSettled(kinds.map((kind) => acquireBackend(kind, useDocker)));
  const report = {} as BackendReport;
  const started: Started[] = [];
  results.forEach((result, index) => {
    const kind = kinds[index] as BackendKind;
    if (result.status === 'fulfilled') {
      started.push(result.value);
      report[kind] = { url: result.value.url, source: result.value.source };
    } else {
      report[kind] = { reason: (result.reason as Error).message };
    }
  });
  return { report, stopAll: async () => void (await Promise.all(started.map((s) => s.stop()))) };
}
