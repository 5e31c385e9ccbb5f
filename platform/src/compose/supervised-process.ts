import { spawn, type ChildProcess } from 'node:child_process';
import { restartDelayMs } from '@platform/testkit/servers';
import { forEachLine } from './log-lines';

/** A process that ran this long before it exited counts as a fresh crash, not one in a row. */
const STABLE_RUN_MS = 30_000;
const KEPT_LINES = 40;

export interface SupervisedProcess {
  readonly name: string;
  /** How often it was restarted after a crash. */
  readonly restarts: number;
  /** The running process's id (a new one after each restart). */
  readonly pid: number | undefined;
  /** Resolves once GET `<url>/api/health` answers 2xx; rejects with its last lines if it exits first or takes too long. */
  waitHealthy(url: string, timeoutMs: number): Promise<void>;
  /** Stops it for good (SIGTERM, SIGKILL after 8 s) and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Runs a service the way compose's `restart: unless-stopped` does: every line it prints goes to
 * `onLine`, and once it has been healthy, an exit that `stop()` did not ask for is reported to
 * `onEvent` and followed by a restart after a growing delay. An exit before it was ever healthy is
 * a start-up failure, left to the caller.
 */
export function superviseProcess(options: {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  onLine: (line: string) => void;
  onEvent: (message: string) => void;
  initialBackoffMs?: number;
}): SupervisedProcess {
  let child: ChildProcess;
  let stopping = false;
  let everHealthy = false;
  let restarts = 0;
  let crashesInARow = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let spawnFailed = false;
  const lastLines: string[] = [];
  const keep = (line: string) => {
    lastLines.push(line);
    if (lastLines.length > KEPT_LINES) lastLines.shift();
    options.onLine(line);
  };

  const launch = () => {
    const startedAt = Date.now();
    child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    forEachLine(child.stdout!, keep);
    forEachLine(child.stderr!, keep);
    child.on('error', (error) => {
      spawnFailed = child.pid === undefined;
      keep(error.message);
    });
    child.once('exit', (code, signal) => {
      if (stopping || !everHealthy) return;
      crashesInARow = Date.now() - startedAt >= STABLE_RUN_MS ? 1 : crashesInARow + 1;
      const delay = restartDelayMs(crashesInARow, options.initialBackoffMs);
      options.onEvent(`exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (stopping) return;
        restarts += 1;
        launch();
      }, delay);
    });
  };
  launch();

  const exited = () => spawnFailed || child.exitCode !== null || child.signalCode !== null;
  return {
    name: options.name,
    get restarts() {
      return restarts;
    },
    get pid() {
      return child.pid;
    },
    async waitHealthy(url, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (exited()) throw new Error(`${options.name} exited (${child.signalCode ?? `code ${child.exitCode}`}) before it was healthy:\n${lastLines.join('\n')}`);
        try {
          const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) });
          if (response.ok) {
            everHealthy = true;
            return;
          }
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`${options.name} at ${url} not healthy after ${timeoutMs} ms:\n${lastLines.join('\n')}`);
    },
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      if (exited()) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 8_000);
      await gone;
      clearTimeout(force);
    },
  };
}
