import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMongoCompatBinary } from './mongo-compat-build';
import { freePort, recentOutput, startProcess, waitForPort, type ManagedProcess } from './processes';

/** A throwaway server on a loopback port that keeps its port and data across `restart()`. */
export interface LocalServer {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGTERM, or SIGKILL with `{ kill: true }` to simulate a crash). */
  stop(options?: { kill?: boolean }): Promise<void>;
  /** Starts it again on the same port with the same data directory. */
  restart(): Promise<void>;
  /** Stops it and removes its data directory, unless the caller named one to keep. */
  dispose(): Promise<void>;
}

export interface LocalServerOptions {
  /** Where the server keeps its data, created if missing and kept after dispose(); a fresh temporary directory otherwise. */
  dataDir?: string;
}

interface ServerRecipe {
  name: string;
  urlFor(port: number): string;
  launch(port: number, dataDir: string): Promise<ManagedProcess>;
}

async function startLocalServer(recipe: ServerRecipe, options: LocalServerOptions): Promise<LocalServer> {
  const port = await freePort();
  const keepData = options.dataDir !== undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), `${recipe.name}-`)));
  if (keepData) await mkdir(dataDir, { recursive: true });
  let running: ManagedProcess | undefined;
  const launch = async () => {
    const proc = await recipe.launch(port, dataDir);
    try {
      await waitForPort(port);
    } catch (error) {
      await proc.stop('SIGKILL');
      throw new Error(`${recipe.name} did not start: ${(error as Error).message}\n${recentOutput(proc)}`);
    }
    running = proc;
  };
  await launch();
  return {
    url: recipe.urlFor(port),
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
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's nats-server with JetStream on a free loopback port. */
export function startNatsServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  return startLocalServer({
    name: 'nats-server',
    urlFor: (port) => `nats://127.0.0.1:${port}`,
    launch: async (port, dataDir) => startProcess('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dataDir]),
  }, options);
}

/**
 * Debian's redis-server on a free loopback port; without persistence unless `appendOnly` asks for
 * the append-only file docker-compose.yml uses (so data survives a killed server).
 */
export function startRedisServer(options: LocalServerOptions & { appendOnly?: boolean } = {}): Promise<LocalServer> {
  return startLocalServer({
    name: 'redis-server',
    urlFor: (port) => `redis://127.0.0.1:${port}`,
    launch: async (port, dataDir) =>
      startProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', options.appendOnly ? 'yes' : 'no', '--dir', dataDir]),
  }, options);
}

/** FerretDB (SQLite backend) speaking the MongoDB wire protocol on a free loopback port. */
export function startMongoCompatServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  return startLocalServer({
    name: 'mongo-compat',
    urlFor: (port) => `mongodb://127.0.0.1:${port}/`,
    launch: async (port, dataDir) => {
      const binary = await ensureMongoCompatBinary();
      return startProcess(binary, ['-listen', `127.0.0.1:${port}`, '-dir', dataDir]);
    },
  }, options);
}
