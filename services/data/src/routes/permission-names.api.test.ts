import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
let owner: string;
let viewer: string;
let stranger: string;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  owner = await platform.signIn('owner');
  viewer = await platform.signIn('viewer');
  stranger = await platform.signIn('stranger');
  projectId = await platform.seedProject({
    ownerId: 'owner',
    members: [{ userId: 'viewer', permissions: ['viewers'] }, { userId: 'stranger' }],
    access: { update: { userIds: ['owner'] } },
  });
});

afterAll(async () => {
  await platform?.close();
});

const base = () => `/api/projects/${projectId}`;

async function newType(body: Record<string, unknown> = {}) {
  const type = await platform.call('POST', `${base()}/types`, { token: owner, body: { name: 'Notes', ...body } });
  expect(type.status).toBe(201);
  return type.body as { id: string; revision: number; access?: unknown; defaultAccess?: unknown };
}

async function newDocument(typeId: string, body: Record<string, unknown>) {
  const created = await platform.call('POST', `${base()}/types/${typeId}/data`, { token: owner, body: { title: 'doc', ...body } });
  expect(created.status).toBe(201);
  return created.body as { id: string; revision: number; access?: unknown };
}

async function patch(path: string, modifier: unknown, baseRevision: number) {
  return platform.call('PATCH', path, { token: owner, body: { modifier, baseRevision } });
}

describe('permission names in access rules', () => {
  it('a document POSTed with a plain name stores it scoped, and members holding the permission read it', async () => {
    const type = await newType();
    const doc = await newDocument(type.id, { access: { read: { permission: 'viewers' }, update: { permission: 'other-project::editors', userIds: ['owner'] } } });
    expect(doc.access).toEqual({ read: { permission: `${projectId}::viewers` }, update: { permission: 'other-project::editors', userIds: ['owner'] } });
    const path = `${base()}/types/${type.id}/data/${doc.id}`;
    expect((await platform.call('GET', path, { token: viewer })).status).toBe(200);
    expect((await platform.call('GET', path, { token: stranger })).status).toBe(404);
    const pulled = await platform.call('GET', `${base()}/types/${type.id}/data?updatedAt=0`, { token: viewer });
    expect(pulled.body.items.map((item: { id: string }) => item.id)).toEqual([doc.id]);
  });

  it('PATCH scopes names set as the whole access, one rule or one permission', async () => {
    const type = await newType();
    const doc = await newDocument(type.id, {});
    const path = `${base()}/types/${type.id}/data/${doc.id}`;
    const whole = await patch(path, { $set: { access: { read: { permission: 'viewers' } } } }, 0);
    expect(whole.body.access).toEqual({ read: { permission: `${projectId}::viewers` } });
    const rule = await patch(path, { $set: { 'access.update': { permission: 'editors', userIds: ['owner'] } } }, 1);
    expect(rule.body.access.update).toEqual({ permission: `${projectId}::editors`, userIds: ['owner'] });
    const single = await patch(path, { $set: { 'access.delete.permission': 'viewers' } }, 2);
    expect(single.body.access.delete).toEqual({ permission: `${projectId}::viewers` });
    expect(single.body.changes[3].modifier).toEqual({ $set: { 'access.delete.permission': `${projectId}::viewers` } });
    const users = await patch(path, { $addToSet: { 'access.read.userIds': 'stranger' } }, 3);
    expect(users.body.access.read).toEqual({ permission: `${projectId}::viewers`, userIds: ['stranger'] });
  });

  it('refuses operators that would store a permission unscoped, naming the path, and changes nothing', async () => {
    const type = await newType();
    const doc = await newDocument(type.id, { note: 'viewers' });
    const path = `${base()}/types/${type.id}/data/${doc.id}`;
    const renamed = await patch(path, { $rename: { note: 'access.read.permission' } }, 0);
    expect(renamed.status).toBe(400);
    expect(renamed.body.code).toBe('DATA_INVALID_MODIFIER');
    expect(renamed.body.error).toContain('modifier.$rename.note');
    const after = await platform.call('GET', path, { token: owner });
    expect(after.body).toMatchObject({ revision: 0, note: 'viewers' });
    expect(after.body.access).toBeUndefined();
  });

  it("a type's defaultAccess and access are stored scoped; its documents, resetToDefault and the batch filter agree", async () => {
    const type = await newType({ defaultAccess: { read: { permission: 'viewers' } }, access: { read: { permission: 'viewers' } } });
    expect(type.defaultAccess).toEqual({ read: { permission: `${projectId}::viewers` } });
    expect(type.access).toEqual({ read: { permission: `${projectId}::viewers` } });
    const patched = await patch(`${base()}/types/${type.id}`, { $set: { 'defaultAccess.update.permission': 'viewers' } }, type.revision);
    expect(patched.status).toBe(200);
    expect(patched.body.defaultAccess).toEqual({ read: { permission: `${projectId}::viewers` }, update: { permission: `${projectId}::viewers` } });

    const doc = await newDocument(type.id, {});
    expect(doc.access).toEqual(patched.body.defaultAccess);
    expect((await platform.call('GET', `${base()}/types/${type.id}/data/${doc.id}`, { token: viewer })).status).toBe(200);

    const restricted = await patch(`${base()}/types/${type.id}/data/${doc.id}`, { $set: { access: { read: { userIds: ['owner'] } } } }, 0);
    expect(restricted.status).toBe(200);
    const reset = await platform.call('POST', `${base()}/types/${type.id}/batch-rls`, { token: owner, body: { action: 'resetToDefault' } });
    expect(reset.body).toMatchObject({ matchingCount: 1, modifiedCount: 1 });
    expect((await platform.call('GET', `${base()}/types/${type.id}/data/${doc.id}`, { token: viewer })).status).toBe(200);
    const found = await platform.call('POST', `${base()}/types/${type.id}/batch-rls`, {
      token: owner,
      body: { action: 'removePermission', operations: ['update'], permission: 'viewers', filter: { rlsPermission: 'viewers', rlsOperation: 'read' }, dryRun: true },
    });
    expect(found.body.matchingCount).toBe(1);
  });

  it('applications store plain names scoped on POST and PATCH', async () => {
    const created = await platform.call('POST', `${base()}/applications`, { token: owner, body: { name: 'App', access: { read: { permission: 'viewers' } } } });
    expect(created.status).toBe(201);
    expect(created.body.access).toEqual({ read: { permission: `${projectId}::viewers` } });
    const patched = await patch(`${base()}/applications/${created.body.id}`, { $set: { 'access.update': { permission: 'viewers' } } }, 0);
    expect(patched.body.access.update).toEqual({ permission: `${projectId}::viewers` });
    expect((await platform.call('GET', `${base()}/applications/${created.body.id}`, { token: viewer })).status).toBe(200);
  });
});
