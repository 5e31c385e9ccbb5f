import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createRedisKeyValue } from '@platform/kv';
import { openDocumentStore } from '@platform/storage';
import { freePort, hasExecutableSync, startBackendServers } from '@platform/testkit/servers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = resolve(__dirname, '../../..');
const missing = ['nats-server', 'redis-server'].filter((program) => !hasExecutableSync(program));
const title = 'pnpm start:services with local backends';
// Like the testkit's suites: skipped with the reason on a machine without them, a failure in CI.
const describeLocal = missing.length && !process.env.CI ? describe.skip : describe;

describeLocal(missing.length && !process.env.CI ? `${title} [skipped: ${missing.join(', ')} not installed]` : title, () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'start-services-data-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the backends’ data under DATA_DIR across restarts (Redis through its append-only file)', async () => {
    const first = await startBackendServers({}, { dataDir });
    const kv = await createRedisKeyValue({ url: first.urls.redis });
    await kv.set('kept', 'yes');
    await kv.close();
    const store = await openDocumentStore({ mongoUrl: first.urls.mongo, mongoDatabase: 'kept', dataDir });
    await store.collection('notes').insertOne({ id: 'n1', title: 'kept' });
    await store.close();
    await first.stop();

    const second = await startBackendServers({}, { dataDir });
    try {
      const reopened = await createRedisKeyValue({ url: second.urls.redis });
      expect(await reopened.get('kept')).toBe('yes');
      await reopened.close();
      const reopenedStore = await openDocumentStore({ mongoUrl: second.urls.mongo, mongoDatabase: 'kept', dataDir });
      expect(await reopenedStore.collection('notes').findById('n1')).toMatchObject({ title: 'kept' });
      await reopenedStore.close();
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('stops everything it started when start-up fails, naming the cause', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/start-services.ts'], {
      cwd: repositoryRoot,
      // A setting every service refuses: the backends start, then every service exits. A free PORT: one in use is refused before anything starts.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, DATA_DIR: dataDir, PORT: String(await freePort()), BODY_LIMIT_BYTES: '12' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    // The whole output with each failure: start-up under load can fail on another cause first.
    expect(code, output).toBe(1);
    expect(output, output).toContain('BODY_LIMIT_BYTES');
    expect(output, output).toMatch(/exited \(code 1\) before it was healthy/);
    // Nothing that start:services launched outlives it: every backend ran with its data under dataDir.
    const { stdout } = await run('ps', ['-eo', 'args']);
    expect(stdout.split('\n').filter((line) => line.includes(dataDir))).toEqual([]);
    // Six services loading their sources at once took 95 s on the loaded 2-core machine.
  }, 300_000);

  it('stops everything it started when only pnpm is told to stop (SIGTERM to pnpm, as a process manager, an IDE or `timeout` sends it)', async () => {
    const child = spawn('pnpm', ['-s', 'start:services'], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, DATA_DIR: dataDir, PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output.includes('gateway ready at'), { timeout: 240_000, interval: 500 }).toBe(true);
    // Everything pnpm started: the script, its backends and services.
    const started = await descendantsOf(child.pid!);
    expect(started.length, output).toBeGreaterThanOrEqual(10);
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    await expect.poll(() => alive(started).length, { timeout: 60_000, interval: 500 }).toBe(0);
  }, 330_000);
});

/** The processes below `pid`, by `ps`. */
async function descendantsOf(pid: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,ppid=']);
  const children = new Map<number, number[]>();
  for (const line of stdout.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Those of `pids` still running. */
function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}
