import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer, connect } from 'node:net';

/** Asks the OS for a free loopback port by binding port 0 and releasing it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
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
