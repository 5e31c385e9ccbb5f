import { spawn } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const repositoryRoot = resolve(__dirname, '../../..');

it('pnpm start:services names each missing program and how to get it, at once, and starts nothing', async () => {
  // A PATH with node alone, and an empty build cache, so nats-server, redis-server and Go are all missing.
  const sandbox = await mkdtemp(join(tmpdir(), 'start-services-'));
  await symlink(process.execPath, join(sandbox, 'node'));
  try {
    const startedAt = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'platform/src/start-services.ts'], {
      cwd: repositoryRoot,
      env: { PATH: sandbox, HOME: sandbox, XDG_CACHE_HOME: sandbox, DATA_DIR: join(sandbox, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    const elapsedMs = Date.now() - startedAt;
    expect(code).toBe(1);
    expect(stderr).toContain('pnpm start:services needs nats-server: apt-get install nats-server, or set NATS_URL');
    expect(stderr).toContain('pnpm start:services needs redis-server: apt-get install redis-server, or set REDIS_URL');
    expect(stderr).toContain('pnpm start:services needs go: apt-get install golang-go');
    // About 0.4 s on an idle machine (the kit is loaded only after the check); the bound leaves room
    // for a loaded one. It used to wait 20 s for the spawn error.
    expect(elapsedMs).toBeLessThan(5_000);
  } finally {
    await rm(sandbox, { recursive: true, force: true });
  }
});
