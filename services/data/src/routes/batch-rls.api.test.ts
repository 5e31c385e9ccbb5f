import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
let owner: string;
let member: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  owner = await platform.signIn('owner');
  member = await platform.signIn('member');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'member' }], access: { update: { userIds: ['owner'] } } });
});

afterAll(async () => {
  await platform?.close();
});

/** A fresh type with documents of the given access rules; answers its id and the documents' ids. */
async function typeWith(accesses: Array<Record<string, unknown> | undefined>, defaultAccess?: Record<string, unknown>) {
  const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Batch', ...(defaultAccess ? { defaultAccess } : {}) } });
  const typeId = type.body.id as string;
  const ids: string[] = [];
  for (const access of accesses) {
    const created = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: owner, body: { title: 'doc', ...(access ? { access } : {}) } });
    ids.push(created.body.id);
  }
  return { typeId, ids };
}

async function batch(typeId: string, body: unknown, token = owner) {
  return platform.call('POST', `/api/projects/${projectId}/types/${typeId}/batch-rls`, { token, body });
}

async function accessOf(typeId: string, id: string) {
  return (await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data/${id}?includeChanges=true`, { token: owner })).body;
}

describe('batch RLS', () => {
  it('setPermission with a dry run first: counts, changes nothing, then executes with revisions and changes', async () => {
    const { typeId, ids } = await typeWith([undefined, undefined, undefined]);
    const dry = await batch(typeId, { action: 'setPermission', operations: ['read', 'update'], permission: 'editors', dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ matchingCount: 3, action: 'setPermission', operations: ['read', 'update'], dryRun: true, sample: [...ids].sort().map((id) => ({ id })) });
    expect((await accessOf(typeId, ids[0]!)).revision).toBe(0);

    const run = await batch(typeId, { action: 'setPermission', operations: ['read', 'update'], permission: 'editors' });
    expect(run.body).toEqual({ matchingCount: 3, action: 'setPermission', operations: ['read', 'update'], dryRun: false, modifiedCount: 3 });
    const doc = await accessOf(typeId, ids[0]!);
    expect(doc.access).toEqual({ read: { permission: `${projectId}::editors` }, update: { permission: `${projectId}::editors` } });
    expect(doc.revision).toBe(1);
    expect(doc.changes[1]).toMatchObject({ userId: 'owner', baseRevision: 0 });

    const again = await batch(typeId, { action: 'setPermission', operations: ['read'], permission: `${projectId}::editors` });
    expect(again.body).toMatchObject({ matchingCount: 3, modifiedCount: 0 });
  });

  it('removePermission, addUserId and removeUserId', async () => {
    const { typeId, ids } = await typeWith([{ read: { permission: `${projectId}::editors` } }, { read: { permission: `${projectId}::viewers` } }]);
    expect((await batch(typeId, { action: 'removePermission', operations: ['read'], permission: 'editors' })).body).toMatchObject({ matchingCount: 2, modifiedCount: 1 });
    expect((await accessOf(typeId, ids[0]!)).access).toEqual({ read: {} });
    expect((await accessOf(typeId, ids[1]!)).access).toEqual({ read: { permission: `${projectId}::viewers` } });

    expect((await batch(typeId, { action: 'addUserId', operations: ['read', 'delete'], userId: 'u9' })).body).toMatchObject({ modifiedCount: 2 });
    expect((await accessOf(typeId, ids[1]!)).access).toEqual({ read: { permission: `${projectId}::viewers`, userIds: ['u9'] }, delete: { userIds: ['u9'] } });
    expect((await batch(typeId, { action: 'removeUserId', operations: ['read'], userId: 'u9' })).body).toMatchObject({ modifiedCount: 2 });
    expect((await accessOf(typeId, ids[1]!)).access.read).toEqual({ permission: `${projectId}::viewers`, userIds: [] });
  });

  it('resetToDefault uses the type defaultAccess, and needs one', async () => {
    const { typeId, ids } = await typeWith([{ read: { userIds: ['x'] } }, undefined], { read: { permission: `${projectId}::staff` } });
    expect((await batch(typeId, { action: 'resetToDefault' })).body).toMatchObject({ matchingCount: 2, modifiedCount: 1, operations: [] });
    expect((await accessOf(typeId, ids[0]!)).access).toEqual({ read: { permission: `${projectId}::staff` } });
    const bare = await typeWith([undefined]);
    const refused = await batch(bare.typeId, { action: 'resetToDefault' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('DATA_NO_DEFAULT_ACCESS');
  });

  it('a dry run samples at most 10 matching entities with their access, only those the caller may read', async () => {
    const delegated = `psample${Date.now()}`;
    await platform.seedProject({ id: delegated, ownerId: 'owner', members: [{ userId: 'member', permissions: [`${delegated}::admins`] }], access: { update: { permission: `${delegated}::admins` } } });
    const type = await platform.call('POST', `/api/projects/${delegated}/types`, { token: owner, body: { name: 'Sampled' } });
    const typeId = type.body.id as string;
    const create = (body: Record<string, unknown>) => platform.call('POST', `/api/projects/${delegated}/types/${typeId}/data`, { token: owner, body });
    await create({ id: 'a-hidden', access: { read: { userIds: ['owner'] } } });
    for (let index = 0; index < 11; index += 1) await create({ id: `b-${String(index).padStart(2, '0')}` });
    const dry = await platform.call('POST', `/api/projects/${delegated}/types/${typeId}/batch-rls`, { token: member, body: { action: 'addUserId', operations: ['read'], userId: 'z', dryRun: true } });
    expect(dry.status).toBe(200);
    expect(dry.body.matchingCount).toBe(12);
    expect(dry.body.sample.map((entity: { id: string }) => entity.id)).toEqual(Array.from({ length: 10 }, (_, index) => `b-${String(index).padStart(2, '0')}`));
    const byOwner = await platform.call('POST', `/api/projects/${delegated}/types/${typeId}/batch-rls`, { token: owner, body: { action: 'addUserId', operations: ['read'], userId: 'z', dryRun: true } });
    expect(byOwner.body.sample[0]).toEqual({ id: 'a-hidden', access: { read: { userIds: ['owner'] } } });
    expect((await platform.call('GET', `/api/projects/${delegated}/types/${typeId}/data/b-00`, { token: owner })).body.revision).toBe(0);
  });

  it('filters by permission and user, on one operation or any, and skips deleted entities', async () => {
    const { typeId, ids } = await typeWith([
      { read: { permission: `${projectId}::editors` } },
      { update: { permission: `${projectId}::editors`, userIds: ['u1'] } },
      { read: { userIds: ['u1'] } },
      undefined,
    ]);
    const count = async (filter: Record<string, unknown>) => (await batch(typeId, { action: 'addUserId', operations: ['read'], userId: 'z', filter, dryRun: true })).body.matchingCount;
    expect(await count({ rlsPermission: 'editors' })).toBe(2);
    expect(await count({ rlsPermission: 'editors', rlsOperation: 'read' })).toBe(1);
    expect(await count({ rlsUserId: 'u1' })).toBe(2);
    expect(await count({ rlsUserId: 'u1', rlsOperation: 'update' })).toBe(1);
    expect(await count({ rlsOperation: 'read' })).toBe(2);
    expect(await count({})).toBe(4);
    await platform.call('DELETE', `/api/projects/${projectId}/types/${typeId}/data/${ids[3]}`, { token: owner });
    expect(await count({})).toBe(3);
  });

  it('targets deleted entities only with includeDeleted, says how many matches are deleted, and then hides them from members without the permission', async () => {
    const { typeId, ids } = await typeWith([undefined, undefined, undefined]);
    const deletedId = ids[2]!;
    await platform.call('DELETE', `/api/projects/${projectId}/types/${typeId}/data/${deletedId}`, { token: owner });
    const restrict = { action: 'setPermission', operations: ['read'], permission: 'secret' };

    expect((await batch(typeId, restrict)).body).toEqual({ matchingCount: 2, action: 'setPermission', operations: ['read'], dryRun: false, modifiedCount: 2 });
    expect(await accessOf(typeId, deletedId)).toMatchObject({ revision: 1, deletedAt: expect.any(Number) });
    expect((await accessOf(typeId, deletedId)).access).toBeUndefined();
    const pulledIds = async () => (await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data?updatedAt=0`, { token: member })).body.items.map((item: { id: string }) => item.id);
    expect(await pulledIds()).toEqual([deletedId]);

    const dry = await batch(typeId, { ...restrict, includeDeleted: true, dryRun: true });
    expect(dry.body).toMatchObject({ matchingCount: 3, action: 'setPermission', operations: ['read'], dryRun: true, deletedCount: 1 });
    expect(dry.body.sample).toContainEqual({ id: deletedId, deletedAt: expect.any(Number) });
    expect((await accessOf(typeId, deletedId)).revision).toBe(1);

    const run = await batch(typeId, { ...restrict, includeDeleted: true });
    expect(run.body).toEqual({ matchingCount: 3, action: 'setPermission', operations: ['read'], dryRun: false, modifiedCount: 1, deletedCount: 1 });
    const restricted = await accessOf(typeId, deletedId);
    expect(restricted).toMatchObject({ revision: 2, access: { read: { permission: `${projectId}::secret` } } });
    expect(restricted.changes[2]).toMatchObject({ userId: 'owner', baseRevision: 1 });
    expect(await pulledIds()).toEqual([]);
    expect((await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data/${deletedId}?includeChanges=true`, { token: member })).status).toBe(404);
  });

  it('refuses an includeDeleted that is not a boolean with 400 naming it, and changes nothing', async () => {
    const { typeId, ids } = await typeWith([undefined]);
    await platform.call('DELETE', `/api/projects/${projectId}/types/${typeId}/data/${ids[0]}`, { token: owner });
    const refused = await batch(typeId, { action: 'setPermission', operations: ['read'], permission: 'secret', includeDeleted: 'yes' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('includeDeleted');
    expect((await accessOf(typeId, ids[0]!)).revision).toBe(1);
  });

  it('declares includeDeleted and deletedCount in the OpenAPI document', async () => {
    const route = (await platform.call('GET', '/api/openapi.json')).body.paths['/api/projects/{projectId}/types/{typeId}/batch-rls'].post;
    expect(route.requestBody.content['application/json'].schema.properties.includeDeleted).toMatchObject({ type: 'boolean' });
    expect(route.responses['200'].content['application/json'].schema.properties.deletedCount).toMatchObject({ type: 'number' });
  });

  it('finishes two batches running at once over the same entities: each entity changed by both, no conflict answered', async () => {
    const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Contended' } });
    const typeId = type.body.id as string;
    const operations = Array.from({ length: 200 }, (_, n) => ({ op: 'create', fields: { id: `c${String(n).padStart(3, '0')}`, secret: `s${n}`, access: { read: { userIds: ['nobody'] } } } }));
    expect((await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data/bulk`, { token: owner, body: { operations } })).status).toBe(200);

    const [first, second] = await Promise.all([
      batch(typeId, { action: 'setPermission', operations: ['delete'], permission: 'x1' }),
      batch(typeId, { action: 'setPermission', operations: ['update'], permission: 'x2' }),
    ]);
    expect([first.status, second.status, JSON.stringify(first.body).includes('secret'), JSON.stringify(second.body).includes('secret')]).toEqual([200, 200, false, false]);
    expect([first.body.modifiedCount, second.body.modifiedCount]).toEqual([200, 200]);
    const counted = await batch(typeId, { action: 'setPermission', operations: ['delete', 'update'], permission: 'x1', dryRun: true, filter: { rlsPermission: 'x2', rlsOperation: 'update' } });
    expect(counted.body.matchingCount).toBe(200);
    const doc = await accessOf(typeId, 'c199');
    expect(doc).toMatchObject({ revision: 2, access: { delete: { permission: `${projectId}::x1` }, update: { permission: `${projectId}::x2` } } });
  });

  it('answers 400 for bad input, 404 for an unknown type, 403 without project update permission, and changes nothing', async () => {
    const { typeId, ids } = await typeWith([undefined]);
    for (const body of [
      {},
      { action: 'grant' },
      { action: 'setPermission', permission: 'x' },
      { action: 'setPermission', operations: ['write'], permission: 'x' },
      { action: 'setPermission', operations: ['read'] },
      { action: 'addUserId', operations: ['read'] },
    ]) {
      const response = await batch(typeId, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    expect((await batch('missing', { action: 'resetToDefault' })).status).toBe(404);
    const forbidden = await batch(typeId, { action: 'setPermission', operations: ['read'], permission: 'x' }, member);
    expect(forbidden.status).toBe(403);
    expect((await accessOf(typeId, ids[0]!)).revision).toBe(0);
  });
});
