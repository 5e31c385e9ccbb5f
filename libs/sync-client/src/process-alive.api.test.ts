import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A Node script that awaits the client must not exit under it: the waits of an explicit wait keep the process alive. */
let platform: TestGateway;
let projectId: string;
let owner: string;
let directory: string;

const clientEntry = fileURLToPath(new URL('./index.ts', import.meta.url));

/** Inserts a note and awaits `awaitInSync()` without realtime (nothing else keeps the process alive); `failures` requests fail first, so it also waits out a backoff. */
const script = (failures: number) => `
import { SyncClient } from ${JSON.stringify(clientEntry)};
const [baseUrl, projectId, token, typeId] = process.argv.slice(2);
let failing = 0;
const fetch = (input, init) => (failing-- > 0 ? Promise.reject(new TypeError('fetch failed')) : globalThis.fetch(input, init));
const client = new SyncClient({ baseUrl, projectId, token, collections: [typeId], realtime: false, fetch, backoff: { initialMs: 400, maxMs: 400 }, inSyncSettleMs: 800 });
await client.start();
failing = ${failures};
await client.collection(typeId).insert({ title: 'hello' });
await client.awaitInSync();
console.log('in sync', client.collection(typeId).pendingCount());
await client.close();
`;

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService], realtime: true });
  owner = await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [] });
  directory = await mkdtemp(join(tmpdir(), 'sync-alive-'));
});

afterAll(async () => {
  await platform?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe('awaitInSync() in a Node script without realtime', () => {
  it('keeps the process alive while it waits, for the settle window and for a backoff after a failure, until it resolves', { timeout: 30_000 }, async () => {
    const outcomes = await Promise.all(
      [0, 2].map(async (failures) => {
        const typeId = `alive${failures}${Date.now().toString(36)}`;
        expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id: typeId, name: typeId } })).status).toBe(201);
        const file = join(directory, `await-${failures}.mjs`);
        await writeFile(file, script(failures));
        const outcome = await run(file, [platform.url, projectId, owner, typeId]);
        const stored = await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data?updatedAt=0`, { token: owner });
        return { failures, code: outcome.code, stdout: outcome.stdout.trim(), stderr: outcome.code === 0 ? '' : outcome.stderr.slice(0, 500), stored: stored.body.items.length };
      }),
    );
    expect(outcomes).toEqual([
      { failures: 0, code: 0, stdout: 'in sync 0', stderr: '', stored: 1 },
      { failures: 2, code: 0, stdout: 'in sync 0', stderr: '', stored: 1 },
    ]);
  });
});
