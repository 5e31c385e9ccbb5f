import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startMongoCompatServer, startNatsServer, startProcess, waitForPort, type LocalServer, type ManagedProcess } from '../../libs/testkit/src/servers';

export interface Backends {
  mongo: LocalServer;
  nats: LocalServer;
  redis: LocalServer;
  dispose(): Promise<void>;
}

/**
 * Redis with an append-only file, as docker-compose.yml runs it: the sessions must survive a
 * killed Redis (testkit's Redis keeps nothing on disk, which suits tests but not this check).
 */
async function startPersistentRedis(): Promise<LocalServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'chaos-redis-'));
  let running: ManagedProcess | undefined;
  const launch = async () => {
    running = startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', dataDir]);
    await waitForPort(port);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(options) {
      await running?.stop(options?.kill ? 'SIGKILL' : 'SIGTERM');
      running = undefined;
    },
    async restart() {
      await running?.stop();
      await launch();
    },
    async dispose() {
      await running?.stop();
      running = undefined;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The three backends on loopback, each one killable and restartable on its port with its data. */
export async function startBackends(): Promise<Backends> {
  const [mongo, nats, redis] = await Promise.all([startMongoCompatServer(), startNatsServer(), startPersistentRedis()]);
  return { mongo, nats, redis, dispose: async () => void (await Promise.all([mongo, nats, redis].map((server) => server.dispose()))) };
}
