import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer, connect } from 'node:net';

/**
 * Ports below the ephemeral range of Linux (32768-60999), macOS and Windows (49152-65535): the OS
 * hands none of them to an outgoing connection or a bind to port 0, so between the moment one is
 * found free and the moment its process binds it, only a caller asking for it by number can take
 * it. A port from port 0 is in the ephemeral range, where any connection the machine opens may
 * take it in that moment (a replica of the scaling test failed with "port 36067 is in use").
 */
export const RESERVED_PORT_RANGE = { low: 20_000, high: 32_767 } as const;
const RANDOM_PORT_ATTEMPTS = 50;
/** Vitest workers (VITEST_POOL_ID 1, 2, ...) draw from this many disjoint shares of the range. */
const WORKER_SHARES = 8;

/**
 * The part of RESERVED_PORT_RANGE a process draws from: under vitest, its worker's own share, so
 * two test files running side by side cannot both draw a port before either's process binds it
 * (each topology picks every port up front and binds them seconds later: "port 28902 is in use"
 * failed a CI run); outside vitest (no pool id), the whole range.
 */
export function portRangeFor(poolId: string | undefined): { low: number; high: number } {
  const worker = Number(poolId);
  if (!Number.isInteger(worker) || worker < 1) return RESERVED_PORT_RANGE;
  const size = Math.floor((RESERVED_PORT_RANGE.high - RESERVED_PORT_RANGE.low + 1) / WORKER_SHARES);
  const low = RESERVED_PORT_RANGE.low + ((worker - 1) % WORKER_SHARES) * size;
  return { low, high: low + size - 1 };
}

/**
 * Ports this process has answered: never answered twice. A port is free again once its check
 * releases it, so without this a topology drawing ports one after another could draw the same
 * one twice before binding either.
 */
const answered = new Set<number>();

/** A free loopback port, drawn at random from this process's part of RESERVED_PORT_RANGE (portRangeFor); from port 0 if none of the draws is free. */
export async function freePort(): Promise<number> {
  const { low, high } = portRangeFor(process.env.VITEST_POOL_ID);
  for (let attempt = 0; attempt < RANDOM_PORT_ATTEMPTS; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (answered.has(port)) continue;
    if ((await listenAndRelease(port)) === undefined) continue;
    answered.add(port);
    return port;
  }
  const port = await listenAndRelease(0);
  if (port === undefined) throw new Error('no free loopback port');
  return port;
}

/** Binds `port` on loopback and releases it; answers the port bound, or undefined when it is taken. */
function listenAndRelease(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/** Resolves once something accepts TCP connections on the port, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ManagedProcess {
  readonly child: ChildProcess;
  /** Stops the process (SIGTERM, then SIGKILL after a grace period) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts a long-running helper process whose output is kept for error messages. */
export function startProcess(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ManagedProcess {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => {
    output += `\n${error.message}`;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  Object.defineProperty(child, 'recentOutput', { get: () => output });
  return {
    child,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The last lines a managed process printed, for failure messages. */
export function recentOutput(process: ManagedProcess): string {
  return (process.child as ChildProcess & { recentOutput?: string }).recentOutput ?? '';
}

/** True when an executable of that name is on the PATH. */
export async function hasExecutable(name: string): Promise<boolean> {
  return hasExecutableSync(name);
}

/** The same check without awaiting, for deciding at suite-declaration time. */
export function hasExecutableSync(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    if (!dir) return false;
    try {
      accessSync(`${dir}/${name}`, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
