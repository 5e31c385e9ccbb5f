import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hasExecutableSync } from '@platform/testkit/servers';
import { expect, it } from 'vitest';

const repositoryRoot = resolve(__dirname, '../../..');
const backendsInstalled = hasExecutableSync('nats-server') && hasExecutableSync('redis-server');

/**
 * Ctrl-C at a terminal reaches every process of the foreground group: this one, and pnpm, which
 * passes it on, so `pnpm start:services` gets SIGINT twice. The second one used to kill it in the
 * middle of its stop (pnpm: ELIFECYCLE), leaving its lock and the backends' stop undone.
 */
it.skipIf(!backendsInstalled && !process.env.CI)('pnpm start:services stops cleanly on a second SIGINT during its stop (Ctrl-C through pnpm), exit 0, lock released', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'start-services-interrupt-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/start-services.ts'], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
    while (!output.includes('gateway ready at')) {
      if (child.exitCode !== null) throw new Error(`start:services exited:\n${output.slice(-4000)}`);
      await new Promise((done) => setTimeout(done, 250));
    }
    expect(existsSync(join(dataDir, 'services', 'LOCK'))).toBe(true);
    child.kill('SIGINT');
    await new Promise((done) => setTimeout(done, 200));
    child.kill('SIGINT');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dataDir, 'services', 'LOCK'))).toBe(false);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 420_000);
