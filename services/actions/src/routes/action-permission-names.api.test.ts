import { dataService } from '@platform/data';
import { startTestGateway } from '@platform/gateway/testing';
import { temporaryEmbeddedStore, temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActionsService } from '../app';
import { ACTIONS_COLLECTION } from '../executor/action-repository';
import { ACTIONS_MIGRATIONS_COLLECTION, PERMISSION_NAMES_MIGRATION_ID } from '../executor/permission-migration';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

let platform: ActionsTestPlatform;
let owner: string;
let editor: string;
let viewer: string;

beforeAll(async () => {
  platform = await startActionsPlatform();
  owner = await platform.signIn('owner');
  editor = await platform.signIn('editor');
  viewer = await platform.signIn('viewer');
});
afterAll(async () => {
  await platform?.close();
});

const action = { title: 'Guarded', triggers: [], blocks: [], connections: [] };

describe('permission names in action access rules', () => {
  it('POST and PUT store plain names scoped to the project; names with :: stay', async () => {
    const projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'editor', permissions: ['editors'] }, { userId: 'viewer' }], access: { update: { userIds: ['owner'] } } });
    const created = await platform.createAction(projectId, owner, { ...action, access: { read: { permission: 'editors' }, delete: { permission: 'elsewhere::admins' } } });
    expect(created.access).toEqual({ read: { permission: `${projectId}::editors` }, delete: { permission: 'elsewhere::admins' } });
    const path = `/api/projects/${projectId}/actions/${created.id}`;
    expect((await platform.call('GET', path, { token: editor })).status).toBe(200);
    expect((await platform.call('GET', path, { token: viewer })).status).toBe(404);

    const replaced = await platform.call('PUT', path, { token: owner, body: { ...action, access: { read: { permission: 'editors' }, update: { permission: 'editors' } } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.access).toEqual({ read: { permission: `${projectId}::editors` }, update: { permission: `${projectId}::editors` } });
    // The same rule sent plain is no change of access: an editor without the project's update permission may resend it.
    const resent = await platform.call('PUT', path, { token: editor, body: { ...action, title: 'Renamed', access: { read: { permission: 'editors' }, update: { permission: 'editors' } } } });
    expect(resent.status).toBe(200);
    expect(resent.body.title).toBe('Renamed');
  });
});

/** The same stored action, migrated by the same two starts, on either store. */
function migrationSuite(open: () => Promise<TemporaryStore>): void {
  it('scopes actions stored with plain names at start, once, and records it so later starts read no action', async () => {
    const { store, dispose } = await open();
    try {
      const now = Date.now();
      const legacyAction = (id: string) => ({ id, projectId: 'legacy', ...action, blocksJson: '[]', ownerId: 'owner', access: { read: { permission: 'editors' } }, revision: 0, createdAt: now, updatedAt: now });
      await store.collection(ACTIONS_COLLECTION).insertOne(legacyAction('legacy'));
      for (let start = 1; start <= 2; start += 1) {
        const gateway = await startTestGateway({ services: [dataService, createActionsService()], store });
        try {
          if (start === 1) await gateway.seedProject({ id: 'legacy', ownerId: 'owner', members: [{ userId: 'editor', permissions: ['editors'] }] });
          const read = await gateway.call('GET', '/api/projects/legacy/actions/legacy', { token: await gateway.signIn('editor') });
          expect(read.status).toBe(200);
          expect(read.body).toMatchObject({ revision: 1, access: { read: { permission: 'legacy::editors' } } });
        } finally {
          await gateway.close();
        }
        // Planted after the migration finished: a start that scanned the actions again would scope it.
        if (start === 1) await store.collection(ACTIONS_COLLECTION).insertOne(legacyAction('planted'));
      }
      expect(await store.collection(ACTIONS_MIGRATIONS_COLLECTION).findById(PERMISSION_NAMES_MIGRATION_ID)).toMatchObject({ finishedAt: expect.any(Number) });
      expect(await store.collection(ACTIONS_COLLECTION).findById('planted')).toMatchObject({ revision: 0, access: { read: { permission: 'editors' } } });
    } finally {
      await dispose();
    }
  });
}

describe('migration of action permission names (embedded store)', () => {
  migrationSuite(() => temporaryEmbeddedStore('actions-permission-migration'));
});

describeWithBackend('mongo', 'migration of action permission names (MongoDB)', ({ url }) => {
  migrationSuite(() => temporaryMongoStore(url, 'actions_migration'));
});
