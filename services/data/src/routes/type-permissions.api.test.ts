import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

let platform: TestGateway;
const projectId = 'ptypeguard';
const project = `/api/projects/${projectId}`;
type User = 'owner' | 'admin' | 'editor' | 'reader' | 'member';
const tokens = {} as Record<User, string>;

async function as(user: User, method: string, path: string, body?: unknown) {
  return platform.call(method, `${project}${path}`, { token: tokens[user], ...(body === undefined ? {} : { body }) });
}

async function ownerCreates(path: string, body: Record<string, unknown>) {
  const response = await as('owner', 'POST', path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  for (const user of ['owner', 'admin', 'editor', 'reader', 'member'] as User[]) tokens[user] = await platform.signIn(user);
  // As identity creates projects: changing the project needs its update rule, here the `manage` permission.
  await platform.seedProject({
    id: projectId,
    ownerId: 'owner',
    access: { update: { permission: `${projectId}::manage` }, delete: { userIds: [] } },
    members: [{ userId: 'admin', permissions: ['manage'] }, { userId: 'editor', permissions: ['editors'] }, { userId: 'reader', permissions: ['readers'] }, { userId: 'member' }],
  });
});

afterAll(async () => {
  await platform?.close();
});

describe('creating and changing types (finding 1)', () => {
  it('refuses a member without the project update permission to loosen defaultAccess, and changes nothing', async () => {
    const defaultAccess = { read: { userIds: ['owner'] } };
    await ownerCreates('/types', { id: 'private-notes', name: 'Private notes', defaultAccess });

    const loosened = await as('member', 'PATCH', '/types/private-notes', { modifier: { $unset: { defaultAccess: '' } }, baseRevision: 0 });
    expect(loosened.status).toBe(403);
    expect(loosened.body.code).toBe('DATA_FORBIDDEN');
    expect(loosened.body.error).toContain('defaultAccess');

    const stored = await as('owner', 'GET', '/types/private-notes');
    expect(stored.body).toMatchObject({ revision: 0, defaultAccess });
    // Documents created afterwards still get the type's defaultAccess: another member cannot read them.
    const secret = await as('member', 'POST', '/types/private-notes/data', { id: 'secret', title: 'secret' });
    expect(secret.status).toBe(201);
    expect(secret.body.access).toEqual(defaultAccess);
    expect((await as('reader', 'GET', '/types/private-notes/data/secret')).status).toBe(404);
  });

  it('refuses a member any other change to a type', async () => {
    await ownerCreates('/types', { id: 'tickets', name: 'Tickets' });
    for (const modifier of [{ $set: { name: 'Mine now' } }, { $set: { schema: { fields: { title: { type: 'string', required: true } } } } }, { $set: { syncType: 'localOnly' } }]) {
      const response = await as('member', 'PATCH', '/types/tickets', { modifier, baseRevision: 0 });
      expect({ modifier, status: response.status, code: response.body.code }).toEqual({ modifier, status: 403, code: 'DATA_FORBIDDEN' });
    }
    expect((await as('owner', 'GET', '/types/tickets')).body).toMatchObject({ revision: 0, name: 'Tickets' });
  });

  it('refuses a member creating a type, with or without defaultAccess, and stores nothing', async () => {
    for (const body of [{ id: 'member-type', name: 'Mine' }, { id: 'member-type', name: 'Mine', defaultAccess: { read: { userIds: ['member'] } } }]) {
      const response = await as('member', 'POST', '/types', body);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('DATA_FORBIDDEN');
    }
    expect((await as('owner', 'GET', '/types/member-type')).status).toBe(404);
  });

  it('lets a holder of the project update permission create a type and change its defaultAccess', async () => {
    const created = await as('admin', 'POST', '/types', { id: 'admin-type', name: 'Admin', defaultAccess: { read: { permission: `${projectId}::readers` } } });
    expect(created.status).toBe(201);
    const patched = await as('admin', 'PATCH', '/types/admin-type', { modifier: { $unset: { defaultAccess: '' }, $set: { name: 'Admin type' } }, baseRevision: 0 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ revision: 1, name: 'Admin type' });
    expect(patched.body.defaultAccess).toBeUndefined();
  });

  it("lets the type's own update rule grant changing it, but not its defaultAccess or access", async () => {
    await ownerCreates('/types', { id: 'shared', name: 'Shared', defaultAccess: { read: { userIds: ['owner'] } }, access: { update: { permission: `${projectId}::editors` } } });
    const renamed = await as('editor', 'PATCH', '/types/shared', { modifier: { $set: { name: 'Shared notes' } }, baseRevision: 0 });
    expect(renamed.status).toBe(200);
    expect((await as('member', 'PATCH', '/types/shared', { modifier: { $set: { name: 'Hijacked' } }, baseRevision: 1 })).status).toBe(403);

    const loosened = await as('editor', 'PATCH', '/types/shared', { modifier: { $rename: { defaultAccess: 'oldDefault' } }, baseRevision: 1 });
    expect(loosened.status).toBe(403);
    expect(loosened.body.details.paths).toContain('modifier.$rename.defaultAccess');
    const opened = await as('editor', 'PATCH', '/types/shared', { modifier: { $unset: { access: '' } }, baseRevision: 1 });
    expect(opened.status).toBe(400);
    expect(opened.body.error).toContain('access');
    expect((await as('owner', 'GET', '/types/shared')).body).toMatchObject({ revision: 1, name: 'Shared notes', defaultAccess: { read: { userIds: ['owner'] } } });
  });

  it("lets a holder of the project update permission change a type whose own update rule names others, its access too", async () => {
    await ownerCreates('/types', { id: 'delegated', name: 'Delegated', access: { update: { permission: `${projectId}::editors` } } });
    const renamed = await as('admin', 'PATCH', '/types/delegated', { modifier: { $set: { name: 'Taken back' } }, baseRevision: 0 });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'Taken back']);
    const reopened = await as('admin', 'PATCH', '/types/delegated', { modifier: { $unset: { access: '' } }, baseRevision: 1 });
    expect([reopened.status, reopened.body.access]).toEqual([200, undefined]);
    // Without the rule, only the project's updaters change it.
    expect((await as('editor', 'PATCH', '/types/delegated', { modifier: { $set: { name: 'Mine now' } }, baseRevision: 2 })).status).toBe(403);
    expect((await as('owner', 'GET', '/types/delegated')).body).toMatchObject({ revision: 2, name: 'Taken back' });
  });
});

describe('deleting and restoring types (finding 2)', () => {
  it('refuses a member deleting a type; its documents stay reachable', async () => {
    await ownerCreates('/types', { id: 'contracts', name: 'Contracts' });
    await ownerCreates('/types/contracts/data', { id: 'c1', title: 'Lease' });
    const response = await as('member', 'DELETE', '/types/contracts');
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('DATA_FORBIDDEN');
    expect((await as('owner', 'GET', '/types/contracts/data/c1')).body).toMatchObject({ title: 'Lease' });
  });

  it("lets the type's own delete rule grant deleting it", async () => {
    await ownerCreates('/types', { id: 'scratch', name: 'Scratch', access: { delete: { permission: `${projectId}::editors` } } });
    expect((await as('member', 'DELETE', '/types/scratch')).status).toBe(403);
    expect((await as('editor', 'DELETE', '/types/scratch')).status).toBe(200);
  });

  it('soft-deletes a type so its documents answer 404, refuses its id with a pointer to restore, and restores it with its documents intact', async () => {
    await ownerCreates('/types', { id: 'invoices', name: 'Invoices' });
    const document = await ownerCreates('/types/invoices/data', { id: 'i1', amount: 12 });
    const deleted = await as('owner', 'DELETE', '/types/invoices');
    expect(deleted.status).toBe(200);
    expect(deleted.body.deletedAt).toEqual(expect.any(Number));

    const gone = await as('owner', 'GET', '/types/invoices/data/i1');
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('DATA_TYPE_NOT_FOUND');
    expect((await as('owner', 'GET', '/types/invoices/data')).status).toBe(404);

    const again = await as('owner', 'POST', '/types', { id: 'invoices', name: 'Invoices again' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('DATA_TYPE_DELETED');
    expect(again.body.error).toContain(`${project}/types/invoices/restore`);

    const byMember = await as('member', 'POST', '/types/invoices/restore');
    expect(byMember.status).toBe(403);
    expect((await as('owner', 'GET', '/types/invoices/data/i1')).status).toBe(404);

    const restored = await as('admin', 'POST', '/types/invoices/restore');
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: 'invoices', name: 'Invoices', revision: 2 });
    expect(restored.body.deletedAt).toBeUndefined();
    expect(restored.body.changes.at(-1)).toMatchObject({ userId: 'admin', baseRevision: 1, modifier: { $unset: { deletedAt: '' } } });
    const back = await as('owner', 'GET', '/types/invoices/data/i1');
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ id: 'i1', amount: 12, revision: 0, createdAt: document.createdAt, updatedAt: document.updatedAt });
  });

  it('answers restore of a live type with 409, of an unknown one with 404, and names a malformed id', async () => {
    await ownerCreates('/types', { id: 'live', name: 'Live' });
    const live = await as('owner', 'POST', '/types/live/restore');
    expect(live.status).toBe(409);
    expect(live.body.code).toBe('DATA_TYPE_NOT_DELETED');
    const unknown = await as('owner', 'POST', '/types/never-was/restore');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('DATA_TYPE_NOT_FOUND');
    const malformed = await as('owner', 'POST', '/types/has%20space/restore');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toContain('typeId');
  });

  it('lists the restore route in the OpenAPI document', async () => {
    const openapi = await platform.call('GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths['/api/projects/{projectId}/types/{typeId}/restore'] ?? {})).toEqual(['post']);
  });
});

describe('binding a type to the visitors API (finding 5)', () => {
  const checkInApplication = (id: string, checkIn: Record<string, unknown>) => ({
    id,
    title: { en: 'Kiosk' },
    routes: [{ path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'Column', slots: { children: ['check-in'] } }, 'check-in': { id: 'check-in', name: 'CheckIn', data: checkIn } } } }],
  });

  beforeAll(async () => {
    await ownerCreates('/types', { id: 'guests', name: 'Guests' });
    await ownerCreates('/types', { id: 'guest-events', name: 'Guest events' });
  });

  it('refuses a member saving an application whose CheckIn widget names a visitor type, naming the widget', async () => {
    for (const checkIn of [{ visitorTypeId: 'guests' }, { visitorEventTypeId: 'guest-events' }]) {
      const response = await as('member', 'POST', '/applications', checkInApplication('member-kiosk', checkIn));
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('DATA_FORBIDDEN');
      expect(response.body.error).toContain('CheckIn widget check-in');
    }
    expect((await as('owner', 'GET', '/applications/member-kiosk')).status).toBe(404);
  });

  it('refuses a member patching a CheckIn widget into an application, and changes nothing', async () => {
    await ownerCreates('/applications', checkInApplication('plain-app', { title: { en: 'Welcome' } }));
    const response = await as('member', 'PATCH', '/applications/plain-app', { modifier: { $set: { 'routes.0.widgetTree.widgets.check-in.data.visitorTypeId': 'guests' } }, baseRevision: 0 });
    expect(response.status).toBe(403);
    expect(response.body.details).toEqual({ widgetId: 'check-in', typeId: 'guests' });
    expect((await as('owner', 'GET', '/applications/plain-app')).body.revision).toBe(0);
  });

  it('lets a member save applications without visitor bindings, and the project updaters bind visitor types', async () => {
    expect((await as('member', 'POST', '/applications', checkInApplication('member-app', { title: { en: 'Hi' } }))).status).toBe(201);
    expect((await as('admin', 'POST', '/applications', checkInApplication('admin-kiosk', { visitorTypeId: 'guests', visitorEventTypeId: 'guest-events' }))).status).toBe(201);
    expect((await as('owner', 'PATCH', '/applications/member-app', { modifier: { $set: { 'routes.0.widgetTree.widgets.check-in.data.visitorTypeId': 'guests' } }, baseRevision: 0 })).status).toBe(200);
  });
});

describe("a type's read rule guards its schema and documents (finding 10)", () => {
  beforeAll(async () => {
    await ownerCreates('/types', {
      id: 'salaries',
      name: 'Salaries',
      schema: { fields: { name: { type: 'string' }, amount: { type: 'number' } } },
      access: { read: { permission: `${projectId}::readers` } },
    });
    await ownerCreates('/types/salaries/data', { id: 's1', name: 'Ada', amount: 100 });
  });

  it('answers 404 to a member the read rule excludes, for the schema, sample data and every document route', async () => {
    const paths: Array<[string, string, unknown?]> = [
      ['GET', '/types/salaries/schema'],
      ['GET', '/types/salaries/sample-data'],
      ['POST', '/types/salaries/sample-data', { count: 1 }],
      ['GET', '/types/salaries/data'],
      ['GET', '/types/salaries/data?updatedAt=0'],
      ['GET', '/types/salaries/data/s1'],
      ['POST', '/types/salaries/data', { name: 'Eve', amount: 1 }],
      ['PATCH', '/types/salaries/data/s1', { modifier: { $set: { amount: 0 } }, baseRevision: 0 }],
      ['DELETE', '/types/salaries/data/s1'],
    ];
    for (const [method, path, body] of paths) {
      const response = await as('member', method, path, body);
      expect({ method, path, status: response.status, code: response.body.code }).toEqual({ method, path, status: 404, code: 'DATA_TYPE_NOT_FOUND' });
    }
    const schemaElsewhere = await platform.call('GET', `/api/schemas/projects/${projectId}/types/salaries`, { token: tokens.member });
    expect(schemaElsewhere.status).toBe(404);
    const documents = await as('owner', 'GET', '/types/salaries/data');
    expect(documents.body.items).toEqual([expect.objectContaining({ id: 's1', amount: 100, revision: 0 })]);
  });

  it('binds the project updaters it excludes too: batch RLS (dry run or not) and restore answer 404 and change nothing, as a PATCH of the type does', async () => {
    await ownerCreates('/types', { id: 'bonuses', name: 'Bonuses', access: { read: { permission: `${projectId}::readers` } } });
    await ownerCreates('/types/bonuses/data', { id: 'b1', amount: 5 });
    for (const dryRun of [true, false]) {
      const batch = await as('admin', 'POST', '/types/bonuses/batch-rls', { action: 'setPermission', operations: ['read'], permission: 'manage', dryRun });
      expect({ dryRun, status: batch.status, code: batch.body.code, sample: batch.body.sample }).toEqual({ dryRun, status: 404, code: 'DATA_TYPE_NOT_FOUND', sample: undefined });
    }
    const document = await as('owner', 'GET', '/types/bonuses/data/b1');
    expect(document.body).toMatchObject({ revision: 0 });
    expect(document.body.access).toBeUndefined();
    expect((await as('admin', 'PATCH', '/types/bonuses', { modifier: { $unset: { access: '' } }, baseRevision: 0 })).status).toBe(404);

    expect((await as('owner', 'DELETE', '/types/bonuses')).status).toBe(200);
    const restore = await as('admin', 'POST', '/types/bonuses/restore');
    expect({ status: restore.status, code: restore.body.code, name: restore.body.name }).toEqual({ status: 404, code: 'DATA_TYPE_NOT_FOUND', name: undefined });
    // Still deleted: its documents stay out of reach until a caller the rule admits restores it.
    expect((await as('owner', 'GET', '/types/bonuses/data/b1')).status).toBe(404);
    expect((await as('owner', 'POST', '/types/bonuses/restore')).body).toMatchObject({ id: 'bonuses', revision: 2 });
    expect((await as('owner', 'POST', '/types/bonuses/batch-rls', { action: 'setPermission', operations: ['read'], permission: 'manage', dryRun: true })).body).toMatchObject({ matchingCount: 1 });
  });

  it('serves a member the read rule admits', async () => {
    expect((await as('reader', 'GET', '/types/salaries/schema')).body.schema.properties).toHaveProperty('amount');
    expect((await as('reader', 'GET', '/types/salaries/data/s1')).body).toMatchObject({ name: 'Ada' });
    expect((await as('reader', 'POST', '/types/salaries/data', { name: 'Bob', amount: 2 })).status).toBe(201);
  });

  it('keeps the spec answer for anonymous callers of the schema route', async () => {
    const response = await platform.call('GET', `${project}/types/salaries/schema`);
    expect(response.status).toBe(401);
    expect(response.body).toBe('Unauthorized');
  });
});
