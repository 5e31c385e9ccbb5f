import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMongoCompatBinary } from './mongo-compat-build';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster';
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
  /**
   * Freezes it (SIGSTOP): its connections stay open and nothing answers, as a server a failover
   * cut off without resetting them; `thaw()` (SIGCONT) lets it go on. Stopping thaws it first.
   */
  freeze(): void;
  thaw(): void;
}

export interface LocalServerOptions {
  /** Where the server keeps its data, created if missing and kept after dispose(); a fresh temporary directory otherwise. */
  dataDir?: string;
  /** Told when the server exits without stop(), restart() or dispose() asking it to (a crash, a kill -9). */
  onUnexpectedExit?: (how: string) => void;
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
    proc.child.once('exit', (code, signal) => {
      if (running !== proc) return;
      running = undefined;
      options.onUnexpectedExit?.(signal ?? `code ${code}`);
    });
  };
  await launch();
  /** The running process, taken from the server to stop it (thawed, so it can answer the signal). */
  const release = () => {
    const proc = running;
    running = undefined;
    proc?.child.kill('SIGCONT');
    return proc;
  };
  return {
    url: recipe.urlFor(port),
    port,
    async stop(options) {
      await release()?.stop(options?.kill ? 'SIGKILL' : 'SIGTERM');
    },
    async restart() {
      await release()?.stop();
      await launch();
    },
    freeze() {
      running?.child.kill('SIGSTOP');
    },
    thaw() {
      running?.child.kill('SIGCONT');
    },
    async dispose() {
      await release()?.stop();
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

/** Where FerretDB keeps the documents: SQLite files (starts in a moment) or a private PostgreSQL cluster. */
export type MongoCompatStorage = 'sqlite' | 'postgresql';

/**
 * FerretDB speaking the MongoDB wire protocol on a free loopback port. SQLite by default (tests:
 * it starts fastest), each write applied atomically (tools/mongo-compat runs writes one at a
 * time); `storage: 'postgresql'` runs it on its own PostgreSQL cluster in the data directory,
 * which takes concurrent writers and filters in the database, as MongoDB does.
 */
export async function startMongoCompatServer(options: LocalServerOptions & { storage?: MongoCompatStorage } = {}): Promise<LocalServer> {
  let cluster: PostgresCluster | undefined;
  const server = await startLocalServer({
    name: 'mongo-compat',
    urlFor: (port) => `mongodb://127.0.0.1:${port}/`,
    launch: async (port, dataDir) => {
      const binary = await ensureMongoCompatBinary();
      if (options.storage !== 'postgresql') return startProcess(binary, ['-listen', `127.0.0.1:${port}`, '-dir', dataDir]);
      cluster ??= await startPostgresCluster(dataDir);
      // The benchmarks' stand-in keeps concurrent writers as measured, and with them FerretDB's
      // non-atomic updates (docs/quality.md, "The MongoDB stand-in").
      return startProcess(binary, ['-listen', `127.0.0.1:${port}`, '-postgresql-url', cluster.url, '-serialize-writes=false']);
    },
  }, options).catch(async (error: unknown) => {
    await cluster?.stop();
    throw error;
  });
  if (!cluster) return server;
  const startedCluster = cluster;
  return {
    ...server,
    async dispose() {
      await server.stop();
      await startedCluster.stop();
      await server.dispose();
    },
  };
}
