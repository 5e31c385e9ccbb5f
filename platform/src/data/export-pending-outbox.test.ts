import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { documentsCollection } from '@platform/documents';
import { createEmbeddedStore } from '@platform/storage';
import { describe, expect, it } from 'vitest';
import { platformsOnDisk } from '../testing/platforms-on-disk';
import { backUpEmbeddedStore } from './back-up';
import { MANIFEST_FILE, type ExportManifest } from './export-manifest';
import { exportStore } from './export-store';
import { importStore } from './import-store';
import { Progress } from './progress';

const silent = new Progress('test', { isTTY: false } as NodeJS.WriteStream);

const ndjson = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('an export taken while a change was still in its outbox', () => {
  const platforms = platformsOnDisk('pending-outbox-');
  const { call } = platforms;

  it('is drained by the platform started on the import: the outbox empties and the audit trail gets no second item', async () => {
    const root = await platforms.makeRoot();
    const quiet = { LOG_LEVEL: 'silent' };
    await platforms.start(join(root, 'data'), quiet);
    const registered = await call('POST', '/api/auth/register', undefined, { email: 'outbox@example.org', password: 'outbox password 1', displayName: 'Olive' });
    const token = registered.body.token as string;
    const project = await call('POST', '/api/projects', token, { name: 'Pending' });
    const base = `/api/projects/${project.body.id}`;
    expect((await call('POST', `${base}/types`, token, { id: 'notes', name: 'Notes' })).status).toBe(201);
    expect((await call('POST', `${base}/types/notes/data`, token, { id: 'n1', title: 'First' })).status).toBe(201);
    expect((await call('PATCH', `${base}/types/notes/data/n1`, token, { modifier: { $set: { title: 'Edited' } }, baseRevision: 0 })).status).toBe(200);
    const trail = `${base}/audit-trail?typeId=notes`;
    await expect.poll(async () => (await call('GET', trail, token)).body?.items?.length, { timeout: 20_000 }).toBe(2);
    const trailBefore = (await call('GET', trail, token)).body;
    await platforms.stop();

    // The export as a running platform can take it: the edit written (entity and history) but its
    // event not yet published, so the entity still holds the change in its outbox.
    const exported = join(root, 'export');
    const manifest = await exportStore(exported, (scratch) => backUpEmbeddedStore(join(root, 'data'), scratch), silent);
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
    const moved = await platforms.start(join(root, 'moved'), quiet);
    const outboxOf = async () => ((await moved.context?.store.collection(entities.name).findById('n1')) as { _outbox?: unknown[] } | null)?._outbox;
    await expect.poll(outboxOf, { timeout: 30_000, interval: 500 }).toEqual([]);
    const signedIn = await call('POST', '/api/auth/login', undefined, { email: 'outbox@example.org', password: 'outbox password 1' });
    const note = await call('GET', `${base}/types/notes/data/n1?includeChanges=true`, signedIn.body.token as string);
    expect({ title: note.body.title, revisions: note.body.changes.map((change: { baseRevision: number }) => change.baseRevision + 1) }).toEqual({ title: 'Edited', revisions: [0, 1] });
    expect((await call('GET', trail, signedIn.body.token as string)).body).toEqual(trailBefore);
  }, 120_000);
});
