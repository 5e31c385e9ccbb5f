import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createEmbeddedStore } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./backup-cli.ts', import.meta.url));
const run = (args: string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, ...env, MONGO_URL: '' }, encoding: 'utf8' });

describe('pnpm data:backup', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'backup-cli-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('asks the process that holds the store for the copy, and opens the store itself when nothing holds it', async () => {
    const dataDir = join(root, 'data');
    const store = await createEmbeddedStore({ dataDir, controlSocket: true });
    await store.collection('items').insertOne({ id: 'while-running' });
    const online = await run(['online'], { DATA_DIR: dataDir, INIT_CWD: root });
    expect(online.stdout).toContain(`backed up ${dataDir} to ${join(root, 'online')}`);
    await store.collection('items').insertOne({ id: 'later' });
    await store.close();

    const offline = await run([join(root, 'offline')], { DATA_DIR: dataDir, INIT_CWD: root });
    expect(offline.stdout).toContain(`restore: start the platform with DATA_DIR=${join(root, 'offline')}`);
    for (const [directory, ids] of [['online', ['while-running']], ['offline', ['later', 'while-running']]] as const) {
      const restored = await createEmbeddedStore({ dataDir: join(root, directory) });
      expect((await restored.collection('items').find({}, { sort: { id: 1 } })).map((item) => item.id)).toEqual(ids);
      await restored.close();
    }
    expect(await readdir(dataDir)).not.toContain('LOCK');
  }, 60_000);

  it('refuses a missing directory argument with the usage line', async () => {
    await expect(run([], { DATA_DIR: join(root, 'data') })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: pnpm data:backup <directory>') });
  }, 30_000);
});
