import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { httpCaller, type HttpCall } from './platform-http';

const repository = resolve(__dirname, '../../..');

/** `pnpm start` without pnpm: node running the process entry. */
export const processEntry = ['--import', 'tsx', 'platform/src/main.ts'];

export interface StartedEntry {
  child: ChildProcess;
  /** Calls the running process. */
  call: HttpCall;
  output(): { stdout: string; stderr: string };
  /** Its JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
}

/**
 * Starts the process entry with only the variables given (and PATH; LOG_LEVEL info unless given),
 * or `pnpm start` in a process group of its own, as a terminal runs it; resolves once it logged
 * that it listens.
 */
export async function startEntry(env: Record<string, string>, through: 'node' | 'pnpm start' = 'node'): Promise<StartedEntry> {
  const options = { cwd: repository, env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env } };
  const child = through === 'node' ? spawn(process.execPath, processEntry, options) : spawn('pnpm', ['start'], { ...options, detached: true });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const logs = () => stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  const url = await new Promise<string>((started, failed) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!stdout.includes('"platform started"')) return;
      const line = logs().find((entry) => entry.msg === 'platform started');
      if (line) started(`http://127.0.0.1:${line.port as number}`);
    });
    child.once('exit', (code) => failed(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  return { child, call: httpCaller(() => url), output: () => ({ stdout, stderr }), logs };
}

/** How the process ended (at once if it has already). */
export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
}
