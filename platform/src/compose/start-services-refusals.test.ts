import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { lockDirectory } from '@platform/storage/log-files';

const repositoryRoot = resolve(__dirname, '../../..');
/** Long enough for the refusal on a loaded machine, short enough that a run that starts everything instead is cut. */
const DEADLINE_MS = 20_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `pnpm start:services` with `env`; a run still going at the deadline is stopped (SIGTERM) and reported as such. */
async function startServices(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string; cut: boolean }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/start-services.ts'], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    child.kill('SIGTERM');
  }, DEADLINE_MS);
  const code = await exited;
  clearTimeout(timer);
  return { code, stderr, stdout, cut };
}

async function temporaryDataDir(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'start-services-refusals-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

it('pnpm start:services refuses a PORT in use at once, naming it, and starts nothing', async () => {
  // Another platform on the port: it answers the health check, which the old run took for its own
  // gateway's ("gateway ready"), while the gateway it started exited and was restarted for ever.
  const other = createServer((request, response) => response.writeHead(request.url === '/api/health' ? 200 : 404, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => (other.closeAllConnections(), other.close(() => done()))));
  const port = (other.address() as AddressInfo).port;
  const dataDir = await temporaryDataDir();

  const run = await startServices({ PORT: String(port), DATA_DIR: dataDir });
  expect({ cut: run.cut, code: run.code }).toEqual({ cut: false, code: 1 });
  expect(run.stderr).toContain(`port ${port} is in use: set PORT (PORT=0 picks a free one)`);
  expect(run.stdout).not.toContain('gateway ready');
  expect(existsSync(join(dataDir, 'services', 'nats'))).toBe(false);
});

it('pnpm start:services refuses a DATA_DIR another run holds, naming it, and starts no second backend on its files', async () => {
  const dataDir = await temporaryDataDir();
  // What a running `pnpm start:services` holds: the lock of DATA_DIR/services, here held by this test process.
  await mkdir(join(dataDir, 'services'), { recursive: true });
  const unlock = await lockDirectory(join(dataDir, 'services'));
  cleanups.push(unlock);

  const run = await startServices({ PORT: '0', DATA_DIR: dataDir });
  expect({ cut: run.cut, code: run.code }).toEqual({ cut: false, code: 1 });
  expect(run.stderr).toContain(`DATA_DIR ${dataDir} is in use by another pnpm start:services (process ${process.pid}): stop that one, or set another DATA_DIR`);
  expect(existsSync(join(dataDir, 'services', 'nats'))).toBe(false);
  expect(existsSync(join(dataDir, 'services', 'redis'))).toBe(false);
});
