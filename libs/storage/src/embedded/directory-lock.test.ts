import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDirectory } from './directory-lock';

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
    expect(await readFile(join(directory, 'LOCK'), 'utf8')).toBe(String(process.pid));
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
      expect(await readFile(join(directory, 'LOCK'), 'utf8')).toBe(String(process.pid));
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
});
