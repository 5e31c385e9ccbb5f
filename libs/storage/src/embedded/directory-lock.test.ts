import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDirectory } from './directory-lock';
import { holderText, LOCK_STALE_AFTER_MS } from './lock-holder';

/** Reads LOCK in a tight loop and prints `empty` (then exits) if it ever finds it present but empty. */
const emptyLockWatcher = `
const { readFileSync } = require('node:fs');
const file = process.argv[1];
process.stdout.write('watching\\n');
for (;;) {
  let text;
  try { text = readFileSync(file, 'utf8'); } catch { continue; }
  if (text === '') { process.stdout.write('empty\\n'); process.exit(0); }
}`;

/** Waits for `go`, tries the lock, prints `won` or `refused`, and stays alive holding what it won. */
const contender = (module: string, go: string, directory: string) => `
const { existsSync } = require('node:fs');
import(${JSON.stringify(fileURLToPath(new URL(module, import.meta.url)))}).then(async ({ lockDirectory }) => {
  process.stdout.write('ready\\n');
  while (!existsSync(${JSON.stringify(go)}));
  await lockDirectory(${JSON.stringify(directory)}).then(() => process.stdout.write('won\\n'), () => process.stdout.write('refused\\n'));
  setInterval(() => {}, 1000);
});`;

/** A pid no process has: one past the kernel's largest. */
async function deadPid(): Promise<number> {
  return Number((await readFile('/proc/sys/kernel/pid_max', 'utf8').catch(() => '4194304')).trim()) + 1;
}

describe('data directory lock', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'directory-lock-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('grants one of several locks started together in one process and refuses the others', async () => {
    const attempts = await Promise.allSettled([lockDirectory(directory), lockDirectory(directory), lockDirectory(directory)]);
    const granted = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
    const refused = attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [attempt.reason as Error] : []));
    expect(granted).toHaveLength(1);
    expect(refused.map((error) => error.message)).toEqual([
      `the data directory ${directory} is already open in this process`,
      `the data directory ${directory} is already open in this process`,
    ]);
    expect((await readFile(join(directory, 'LOCK'), 'utf8')).split('\n')[0]).toBe(String(process.pid));
    await granted[0]?.();
    await (await lockDirectory(directory))();
  });

  it('refuses the same directory under another spelling (a symlink, a relative path) while it is held', async () => {
    const unlock = await lockDirectory(directory);
    const alias = `${directory}-alias`;
    await symlink(directory, alias);
    try {
      for (const spelling of [alias, relative(process.cwd(), directory)]) {
        await expect(lockDirectory(spelling)).rejects.toThrow(`the data directory ${spelling} is already open in this process`);
      }
      expect((await readFile(join(directory, 'LOCK'), 'utf8')).split('\n')[0]).toBe(String(process.pid));
    } finally {
      await rm(alias, { force: true });
      await unlock();
    }
  });

  it('never shows another process a LOCK that exists but is still empty (it would take it for a dead one)', async () => {
    const watcher = spawn(process.execPath, ['-e', emptyLockWatcher, join(directory, 'LOCK')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    watcher.stdout.setEncoding('utf8');
    await new Promise<void>((resolve) => {
      watcher.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('watching')) resolve();
      });
    });
    const exited = new Promise((resolve) => watcher.once('exit', resolve));
    try {
      for (let round = 0; round < 300 && !output.includes('empty'); round += 1) await (await lockDirectory(directory))();
    } finally {
      watcher.kill('SIGKILL');
      await exited;
    }
    expect(output).not.toContain('empty');
  });

  // The SDK's FileStore keeps a copy of this lock (it ships without the server's packages): both are held to it.
  it.each(['./directory-lock.ts', '../../../sync-client/src/directory-lock.ts'])('lets exactly one of several processes take over the lock of a dead one (%s)', { timeout: 60_000 }, async (module) => {
    for (let round = 0; round < 3; round += 1) {
      await writeFile(join(directory, 'LOCK'), String(await deadPid()));
      const go = join(directory, `go-${round}`);
      const children = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', '-e', contender(module, go, directory)], { stdio: ['ignore', 'pipe', 'inherit'] }));
      const outputs = children.map((child) => {
        let text = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => (text += chunk));
        return () => text;
      });
      try {
        await expect.poll(() => outputs.every((output) => output().includes('ready')), { timeout: 30_000 }).toBe(true);
        await writeFile(go, '');
        await expect.poll(() => outputs.every((output) => /won|refused/.test(output())), { timeout: 10_000 }).toBe(true);
        expect(outputs.filter((output) => output().includes('won'))).toHaveLength(1);
      } finally {
        for (const child of children) child.kill('SIGKILL');
        await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(null)))));
      }
    }
  });

  it("judges a holder of another pid namespace (a container on the same volume, pid 1 in each) by its lock's refreshes, and one of an earlier boot as gone", async () => {
    const [, namespace = '', boot = ''] = holderText().split('\n');
    const lock = join(directory, 'LOCK');
    // pid 1 is alive here too, but in another namespace that tells nothing: the fresh lock is held.
    await writeFile(lock, ['1', 'pid:[1]', boot].join('\n'));
    await expect(lockDirectory(directory)).rejects.toMatchObject({ code: 'DATA_DIRECTORY_IN_USE', holderPid: 1 });
    const long = new Date(Date.now() - LOCK_STALE_AFTER_MS - 1_000);
    await utimes(lock, long, long);
    await (await lockDirectory(directory))();

    // The same namespace and a live pid, but of an earlier boot: gone.
    await writeFile(lock, ['1', namespace, 'an-earlier-boot'].join('\n'));
    await (await lockDirectory(directory))();
    // A lock written by a version that stored the pid alone is judged by the pid, as before.
    await writeFile(lock, '1');
    await expect(lockDirectory(directory)).rejects.toMatchObject({ code: 'DATA_DIRECTORY_IN_USE', holderPid: 1 });
  });
});
