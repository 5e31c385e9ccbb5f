import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { createEmbeddedStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';
import { MIGRATION_USER_ID } from '../entities/permission-migration';

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

describe('migration of stored plain names', () => {
  it('scopes entities stored with plain names once at start, as a revision by the migration, and leaves scoped ones alone', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'permission-migration-'));
    const store = await createEmbeddedStore({ dataDir });
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
      const pulled = await first.gateway.call('GET', `/api/projects/${project}/types/notes/data?updatedAt=${stamp}`, { token: first.token });
      expect(pulled.body.items.map((item: { id: string }) => item.id)).toEqual(['plain']);
    } finally {
      await first.gateway.close();
    }

    const second = await started();
    try {
      expect((await second.read('/types/notes/data/plain')).body.revision).toBe(1);
      expect((await second.read('/types/notes')).body.revision).toBe(1);
    } finally {
      await second.gateway.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
