import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
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

  it('refuses a DATA_DIR that does not exist or holds no store, naming DATA_DIR, and creates nothing', async () => {
    const missing = join(root, 'not-there');
    await expect(run([join(root, 'copy')], { DATA_DIR: missing, INIT_CWD: root })).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(new RegExp(`${missing} does not exist: set DATA_DIR to the data directory the platform runs with`)),
    });
    // Without DATA_DIR, ./.data from where it runs: what a plain `pnpm start` there would use.
    await expect(run([join(root, 'copy')], { DATA_DIR: '', INIT_CWD: root })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`${join(root, '.data')} does not exist: set DATA_DIR`) });
    // A directory without the store (here only what the key-value store and the principal secret leave).
    const other = join(root, 'other');
    await mkdir(join(other, 'kv'), { recursive: true });
    await writeFile(join(other, 'principal-secret'), 'x'.repeat(64));
    await expect(run([join(root, 'copy')], { DATA_DIR: other, INIT_CWD: root })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`${other} holds no embedded store (no store.wal): set DATA_DIR`) });
    expect((await readdir(root)).sort()).toEqual(['other']);
    expect((await readdir(other)).sort()).toEqual(['kv', 'principal-secret']);
  }, 60_000);

  it('refuses a missing directory argument with the usage line', async () => {
    await expect(run([], { DATA_DIR: join(root, 'data') })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: pnpm data:backup <directory>') });
  }, 30_000);
});
