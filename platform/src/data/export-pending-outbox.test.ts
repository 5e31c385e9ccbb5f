import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentsCollection } from '@platform/documents';
import { createEmbeddedStore } from '@platform/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from '../config';
import { startPlatform, type RunningPlatform } from '../host';
import { backUpEmbeddedStore } from './back-up';
import { MANIFEST_FILE, type ExportManifest } from './export-manifest';
import { exportStore } from './export-store';
import { importStore } from './import-store';
import { Progress } from './progress';

const silent = new Progress('test', { isTTY: false } as NodeJS.WriteStream);

async function call(platform: RunningPlatform, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const ndjson = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('an export taken while a change was still in its outbox', () => {
  let root: string | undefined;
  let platform: RunningPlatform | undefined;

  afterAll(async () => {
    await platform?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('is drained by the platform started on the import: the outbox empties and the audit trail gets no second item', async () => {
    root = await mkdtemp(join(tmpdir(), 'pending-outbox-'));
    const config = (dataDir: string) => loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    platform = await startPlatform(config(join(root, 'data')));
    const source = platform;
    const registered = await call(source, 'POST', '/api/auth/register', { body: { email: 'outbox@example.org', password: 'outbox password 1', displayName: 'Olive' } });
    const token = registered.body.token as string;
    const project = await call(source, 'POST', '/api/projects', { token, body: { name: 'Pending' } });
    const base = `/api/projects/${project.body.id}`;
    expect((await call(source, 'POST', `${base}/types`, { token, body: { id: 'notes', name: 'Notes' } })).status).toBe(201);
    expect((await call(source, 'POST', `${base}/types/notes/data`, { token, body: { id: 'n1', title: 'First' } })).status).toBe(201);
    expect((await call(source, 'PATCH', `${base}/types/notes/data/n1`, { token, body: { modifier: { $set: { title: 'Edited' } }, baseRevision: 0 } })).status).toBe(200);
    const trail = `${base}/audit-trail?typeId=notes`;
    await expect.poll(async () => (await call(source, 'GET', trail, { token })).body?.items?.length, { timeout: 20_000 }).toBe(2);
    const trailBefore = (await call(source, 'GET', trail, { token })).body;
    await source.close();
    platform = undefined;

    // The export as a running platform can take it: the edit written (entity and history) but its
    // event not yet published, so the entity still holds the change in its outbox.
    const exported = join(root, 'export');
    const manifest = await exportStore(exported, (scratch) => backUpEmbeddedStore(join(root as string, 'data'), scratch), silent);
    const entities = manifest.collections.find((entry) => entry.name === documentsCollection(project.body.id as string, 'notes')) as ExportManifest['collections'][number];
    const history = manifest.collections.find((entry) => entry.name === `${entities.name}.history`) as ExportManifest['collections'][number];
    const { id: _id, entityId: _entityId, ...pending } = (await ndjson(join(exported, history.file))).find((record) => record.id === 'n1:1') as Record<string, unknown>;
    const withPending = (await ndjson(join(exported, entities.file))).map((entity) => (entity.id === 'n1' ? { ...entity, _outbox: [pending] } : entity));
    await writeFile(join(exported, entities.file), `${withPending.map((entity) => JSON.stringify(entity)).join('\n')}\n`);
    expect(JSON.parse(await readFile(join(exported, MANIFEST_FILE), 'utf8'))).toEqual(manifest);

    const target = await createEmbeddedStore({ dataDir: join(root, 'moved') });
    try {
      await importStore(exported, target, silent);
      expect(((await target.collection(entities.name).findById('n1')) as { _outbox?: unknown[] } | null)?._outbox).toEqual([pending]);
    } finally {
      await target.close();
    }
    platform = await startPlatform(config(join(root, 'moved')));
    const moved = platform;
    const outboxOf = async () => ((await moved.context?.store.collection(entities.name).findById('n1')) as { _outbox?: unknown[] } | null)?._outbox;
    await expect.poll(outboxOf, { timeout: 30_000, interval: 500 }).toEqual([]);
    const signedIn = await call(moved, 'POST', '/api/auth/login', { body: { email: 'outbox@example.org', password: 'outbox password 1' } });
    const note = await call(moved, 'GET', `${base}/types/notes/data/n1?includeChanges=true`, { token: signedIn.body.token as string });
    expect({ title: note.body.title, revisions: note.body.changes.map((change: { baseRevision: number }) => change.baseRevision + 1) }).toEqual({ title: 'Edited', revisions: [0, 1] });
    expect((await call(moved, 'GET', trail, { token: signedIn.body.token as string })).body).toEqual(trailBefore);
  }, 120_000);
});
