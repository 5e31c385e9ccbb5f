import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { temporaryEmbeddedStore, temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { describe, expect, it } from 'vitest';
import { dataService } from '../app';
import { MIGRATION_USER_ID } from './permission-migration';

/** Pulls from `since`; on a shared MongoDB the migration's writes settle first, and the pull says how long to wait. */
async function pullSettled(gateway: TestGateway, path: string, token: string): Promise<{ items: Array<{ id: string }> }> {
  for (let attempt = 0; ; attempt += 1) {
    const pulled = await gateway.call('GET', path, { token });
    expect(pulled.status).toBe(200);
    if (pulled.body.retryAfterMs === undefined || attempt === 5) return pulled.body;
    await new Promise((resolve) => setTimeout(resolve, pulled.body.retryAfterMs));
  }
}

/** The same records, migrated by the same start, on either store. */
function migrationSuite(open: () => Promise<TemporaryStore>): void {
  it('scopes entities stored with plain names once at start, as a revision by the migration, and leaves scoped ones alone', async () => {
    const { store, dispose } = await open();
    const project = 'legacy';
    const stamp = Date.now() - 60_000;
    const entity = (id: string, fields: Record<string, unknown>) => ({ id, revision: 0, createdAt: stamp, updatedAt: stamp, ...fields });
    // Records as data stored them before every write scoped names, and the registry that lists their collections.
    await store.collection(`tenant-${project}-types`).insertOne(entity('notes', { name: 'Notes', access: { read: { permission: 'viewers' } }, defaultAccess: { read: { permission: 'viewers' }, update: { permission: `${project}::editors` } } }));
    await store.collection(`tenant-${project}-notes`).insertOne(entity('plain', { title: 'plain', access: { read: { permission: 'viewers' } } }));
    await store.collection(`tenant-${project}-notes`).insertOne(entity('scoped', { title: 'scoped', access: { read: { permission: `${project}::viewers` } } }));
    await store.collection(`tenant-${project}-applications`).insertOne(entity('app', { name: 'App', access: { update: { permission: 'viewers', userIds: ['owner'] } } }));
    for (const [typeId, collection] of [['types', 'types'], ['notes', 'notes'], ['applications', 'applications']]) {
      await store.collection('outbox-collections').insertOne({ id: `tenant-${project}-${collection}`, projectId: project, typeId });
    }

    const started = async () => {
      const gateway = await startTestGateway({ services: [dataService], store });
      const token = await gateway.signIn('viewer');
      return { gateway, token, read: async (path: string) => gateway.call('GET', `/api/projects/${project}${path}?includeChanges=true`, { token }) };
    };
    try {
      const first = await started();
      try {
        await first.gateway.seedProject({ id: project, ownerId: 'owner', members: [{ userId: 'viewer', permissions: ['viewers'] }] });
        const type = await first.read('/types/notes');
        expect(type.body).toMatchObject({ revision: 1, access: { read: { permission: `${project}::viewers` } } });
        expect(type.body.defaultAccess).toEqual({ read: { permission: `${project}::viewers` }, update: { permission: `${project}::editors` } });
        const plain = await first.read('/types/notes/data/plain');
        expect(plain.status).toBe(200);
        expect(plain.body).toMatchObject({ revision: 1, access: { read: { permission: `${project}::viewers` } } });
        expect(plain.body.changes.at(-1)).toMatchObject({ userId: MIGRATION_USER_ID, baseRevision: 0, modifier: { $set: { 'access.read.permission': `${project}::viewers` } } });
        expect((await first.read('/types/notes/data/scoped')).body.revision).toBe(0);
        expect((await first.read('/applications/app')).body.access).toEqual({ update: { permission: `${project}::viewers`, userIds: ['owner'] } });
        const pulled = await pullSettled(first.gateway, `/api/projects/${project}/types/notes/data?updatedAt=${stamp}`, first.token);
        expect(pulled.items.map((item) => item.id)).toEqual(['plain']);
      } finally {
        await first.gateway.close();
      }

      const second = await started();
      try {
        expect((await second.read('/types/notes/data/plain')).body.revision).toBe(1);
        expect((await second.read('/types/notes')).body.revision).toBe(1);
      } finally {
        await second.gateway.close();
      }
    } finally {
      await dispose();
    }
  });
}

describe('migration of stored plain names (embedded store)', () => {
  migrationSuite(() => temporaryEmbeddedStore('permission-migration'));
});

describeWithBackend('mongo', 'migration of stored plain names (MongoDB)', ({ url }) => {
  migrationSuite(() => temporaryMongoStore(url, 'permission_migration'));
});
