import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { createEmbeddedStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDeps, documentsCollection, historyCollection, storeChange } from '@platform/documents';
import { dataService } from '../app';

const CHANGES = 100_000;
const REAL_WRITES = 1_000;

let platform: TestGateway;
let token: string;
let projectId: string;

beforeAll(async () => {
  // Without fsync: this test is about history layout, not durability (the storage suite proves that).
  const store = await createEmbeddedStore({ dataDir: await mkdtemp(join(tmpdir(), 'long-history-')), fsync: false });
  platform = await startTestGateway({ services: [dataService], store });
  token = await platform.signIn('writer');
  projectId = await platform.seedProject({ ownerId: 'writer' });
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'counters', name: 'Counters' } })).status).toBe(201);
});

afterAll(async () => {
  await platform?.close();
  await platform?.context.store.close();
});

describe('a document with 100,000 changes', () => {
  it('keeps the stored document small and constant, serves reads without history, and keeps every change', async () => {
    const path = `/api/projects/${projectId}/types/counters/data`;
    const created = await platform.call('POST', path, { token, body: { id: 'busy', title: 'Busy counter', count: 0 } });
    expect(created.status).toBe(201);
    const scope = { projectId, typeId: 'counters', collection: documentsCollection(projectId, 'counters') };
    const { writer } = dataDeps(platform.context);
    const stored = platform.context.store.collection(scope.collection);
    const storedSize = async () => JSON.stringify(await stored.findById('busy')).length;

    // 1,000 changes through the same write path as PATCH (guarded update, history, event)...
    await writer.patch(scope, 'busy', { $inc: { count: 1 } }, { userId: 'writer', baseRevision: 0 });
    const sizeAfterOneChange = await storedSize();
    for (let revision = 1; revision < REAL_WRITES; revision += 1) {
      await writer.patch(scope, 'busy', { $inc: { count: 1 } }, { userId: 'writer', baseRevision: revision });
    }
    // ...and the rest written straight into history in the writer's own record format, since
    // 100,000 sequential writes take minutes here (the benchmark measures the write path itself).
    const history = platform.context.store.collection(historyCollection(scope.collection));
    const seeded = Array.from({ length: CHANGES - 1 - REAL_WRITES }, (_, index) => {
      const revision = REAL_WRITES + 1 + index;
      return { id: `busy:${revision}`, entityId: 'busy', ...storeChange({ revision, userId: 'writer', timestamp: Date.now(), baseRevision: revision - 1, modifier: { $inc: { count: 1 } } }) };
    });
    await history.insertMany(seeded);
    await stored.updateOne({ id: 'busy' }, { $set: { revision: CHANGES - 1, count: CHANGES - 1 } });
    const patched = await platform.call('PATCH', `${path}/busy`, { token, body: { modifier: { $inc: { count: 1 } }, baseRevision: CHANGES - 1 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ revision: CHANGES, count: CHANGES });
    expect(patched.body.changes).toHaveLength(CHANGES + 1);

    // Only the revision and count digits grow: the history is not in the document.
    expect((await storedSize()) - sizeAfterOneChange).toBeLessThan(16);
    expect(await history.count({ entityId: 'busy' })).toBe(CHANGES + 1);

    const plain = await platform.call('GET', `${path}/busy`, { token });
    expect(plain.body).toMatchObject({ id: 'busy', revision: CHANGES, count: CHANGES });
    expect(plain.body).not.toHaveProperty('changes');

    const withChanges = await platform.call('GET', `${path}/busy?includeChanges=true`, { token });
    const changes = withChanges.body.changes as Array<{ baseRevision: number; modifier: unknown }>;
    expect(changes).toHaveLength(CHANGES + 1);
    expect(changes.every((change, index) => change.baseRevision === index - 1)).toBe(true);
    expect(changes[CHANGES]).toMatchObject({ userId: 'writer', modifier: { $inc: { count: 1 } } });
  }, 120_000);
});
