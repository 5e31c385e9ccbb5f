import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a user gets it: `pnpm pack`, installed with npm into an empty project, run with
 * plain node and type-checked by a consumer under NodeNext and Bundler resolution (issue 29).
 * Offline: the one dependency is packed from the workspace's own copy and installed beside it.
 */
const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');

let workDir: string;
let consumer: string;

async function packedTarball(cwd: string, command: string, args: string[]): Promise<string> {
  const before = new Set(await readdir(workDir));
  await run(command, [...args, '--pack-destination', workDir], { cwd, timeout: 90_000 });
  const created = (await readdir(workDir)).find((name) => name.endsWith('.tgz') && !before.has(name));
  if (!created) throw new Error(`${command} pack produced no tarball`);
  return join(workDir, created);
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'sync-client-package-'));
  consumer = join(workDir, 'consumer');
  await mkdir(consumer);
  const sdk = await packedTarball(packageDir, 'pnpm', ['pack']);
  const parser = await packedTarball(await realpath(join(packageDir, 'node_modules', 'eventsource-parser')), 'npm', ['pack', '--ignore-scripts']);
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', sdk, parser], { cwd: consumer, timeout: 90_000 });
}, 180_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const installed = () => join(consumer, 'node_modules', '@platform', 'sync-client');

describe('the packed @platform/sync-client', () => {
  it('ships built JavaScript and declarations, a version, and declares every package its code imports', async () => {
    const manifest = JSON.parse(await readFile(join(installed(), 'package.json'), 'utf8')) as Record<string, any>;
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.private).toBeUndefined();
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    const files = (await readdir(join(installed(), 'dist'), { recursive: true })).map(String);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    const imported = new Set<string>();
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      for (const match of (await readFile(join(installed(), 'dist', file), 'utf8')).matchAll(/(?:from|import)\s*['"]([^'"./][^'"]*)['"]/g)) {
        const specifier = match[1] as string;
        if (!specifier.startsWith('node:')) imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string));
      }
    }
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies ?? {}).sort());
  });

  it('runs with plain node: a client keeps offline writes in a FileStore', async () => {
    const script = `
      import { SyncClient, NetworkError } from '@platform/sync-client';
      import { FileStore } from '@platform/sync-client/file-store';
      const store = await FileStore.open('./copy');
      const client = new SyncClient({
        baseUrl: 'http://127.0.0.1:9', projectId: 'p1', collections: ['notes'], store, realtime: false,
        fetch: () => Promise.reject(new TypeError('fetch failed')),
      });
      const note = await client.collection('notes').insert({ title: 'offline' });
      const pushed = await client.push().then(() => 'pushed', (error) => error instanceof NetworkError ? 'offline' : String(error));
      console.log(JSON.stringify({ pushed, state: client.collection('notes').state(note.id), count: client.collection('notes').list().length }));
      await client.close();
    `;
    await writeFile(join(consumer, 'run.mjs'), script);
    const { stdout } = await run(process.execPath, ['run.mjs'], { cwd: consumer, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ pushed: 'offline', state: 'localChanges', count: 1 });
  }, 60_000);

  it('keeps a Node process alive until queued work is pushed only with keepProcessAlive', async () => {
    const script = `
      import { SyncClient } from '@platform/sync-client';
      let calls = 0;
      const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      // The first three requests find no network; then a server that accepts everything.
      const fetch = async (url, init = {}) => {
        calls += 1;
        if (calls <= 3) throw new TypeError('fetch failed');
        if (init.method === 'POST') return json(200, { results: JSON.parse(init.body).operations.map((operation) => ({ status: 201, body: { ...operation.fields, revision: 0, createdAt: 1, updatedAt: 1 } })) });
        return json(200, String(url).includes('/data?') ? { items: [] } : { id: 'notes' });
      };
      const client = new SyncClient({
        baseUrl: 'http://sync.invalid', projectId: 'p1', collections: ['notes'], realtime: false, fetch,
        keepProcessAlive: process.argv[2] === 'keep', backoff: { initialMs: 100, maxMs: 200 },
      });
      await client.start();
      const note = await client.collection('notes').insert({ title: 'queued' });
      process.on('exit', () => console.log(client.collection('notes').state(note.id)));
    `;
    await writeFile(join(consumer, 'queued.mjs'), script);
    const stateAtExit = async (mode: string) => (await run(process.execPath, ['queued.mjs', mode], { cwd: consumer, timeout: 30_000 })).stdout.trim();
    expect(await stateAtExit('default')).toBe('localChanges');
    expect(await stateAtExit('keep')).toBe('synced');
  }, 60_000);

  it('bundles for browsers from the main entry point, while the Node-only file-store has no browser export', async () => {
    await writeFile(join(consumer, 'browser.mjs'), `import { SyncClient, IndexedDBStore, TabCoordinator } from '@platform/sync-client';\nconsole.log(SyncClient, IndexedDBStore, TabCoordinator);\n`);
    const bundled = await build({ entryPoints: ['browser.mjs'], absWorkingDir: consumer, bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    expect(bundled.errors).toEqual([]);
    expect(bundled.outputFiles[0]?.text).toContain('eventsource-parser');
    await writeFile(join(consumer, 'browser-file-store.mjs'), `import { FileStore } from '@platform/sync-client/file-store';\nconsole.log(FileStore);\n`);
    const refused = await build({ entryPoints: ['browser-file-store.mjs'], absWorkingDir: consumer, bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' }).catch((error: { errors?: Array<{ text: string }> }) => error.errors?.map((error) => error.text).join('\n'));
    expect(refused).toContain('@platform/sync-client/file-store');
  }, 60_000);

  it.each(['NodeNext', 'Bundler'])('type-checks in a consumer project with moduleResolution %s', async (resolution) => {
    const source = `
      import { SyncClient, MemoryStore, type SyncEvents, type LocalDocument } from '@platform/sync-client';
      import { FileStore } from '@platform/sync-client/file-store';
      const client = new SyncClient({ baseUrl: 'http://localhost:3000', projectId: 'p1', collections: [{ typeId: 'notes', realtime: true }], store: new MemoryStore() });
      client.on('conflict', (event: SyncEvents['conflict']) => console.log(event.conflict.reason));
      const notes: LocalDocument[] = client.collection('notes').list();
      const store: Promise<FileStore> = FileStore.open('./copy');
      console.log(notes.length, store);
    `;
    await writeFile(join(consumer, 'check.ts'), source);
    const compilerOptions = {
      target: 'ES2022',
      module: resolution === 'NodeNext' ? 'NodeNext' : 'ESNext',
      moduleResolution: resolution,
      lib: ['ES2022', 'DOM'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    };
    await writeFile(join(consumer, `tsconfig.${resolution}.json`), JSON.stringify({ compilerOptions, files: ['check.ts'] }));
    const result = await run(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], { cwd: consumer, timeout: 90_000 }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
  }, 120_000);
});
