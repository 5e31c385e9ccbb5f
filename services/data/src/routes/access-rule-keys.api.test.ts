import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

/**
 * An access rule with a misspelt key (`users` for `userIds`) or operation (`reed`) was stored
 * without it, as an empty rule, which opens the operation to every member. Every write of an
 * access rule refuses unknown keys, naming them, and writes nothing.
 */
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

const base = () => `/api/projects/${projectId}`;
const misspelt = { read: { users: ['owner'] } };

async function newType(): Promise<string> {
  const type = await platform.call('POST', `${base()}/types`, { token: owner, body: { name: 'Notes' } });
  expect(type.status).toBe(201);
  return type.body.id as string;
}

function expectRefusedKey(response: { status: number; body: { code: string; error: string } }, field: string, key: string) {
  expect(response.status).toBe(400);
  expect(response.body.code).toBe('DATA_INVALID_ACCESS');
  expect(response.body.error).toContain(`Invalid ${field}`);
  expect(response.body.error).toContain(key);
}

describe('access rules refuse unknown keys', () => {
  it('a document POSTed with a misspelt rule key or operation is refused and not stored', async () => {
    const typeId = await newType();
    expectRefusedKey(await platform.call('POST', `${base()}/types/${typeId}/data`, { token: owner, body: { title: 'secret', access: misspelt } }), 'access.read', 'users');
    expectRefusedKey(await platform.call('POST', `${base()}/types/${typeId}/data`, { token: owner, body: { title: 'secret', access: { reed: { userIds: ['owner'] } } } }), 'access', 'reed');
    const bulk = await platform.call('POST', `${base()}/types/${typeId}/data/bulk`, { token: owner, body: { operations: [{ op: 'create', fields: { title: 'secret', access: misspelt } }] } });
    expect(JSON.stringify(bulk.body)).toContain('DATA_INVALID_ACCESS');
    const listed = await platform.call('GET', `${base()}/types/${typeId}/data`, { token: owner });
    expect(listed.body.items).toEqual([]);
  });

  it('PATCH refuses a misspelt key set as the whole access, one rule or one path, and changes nothing', async () => {
    const typeId = await newType();
    const created = await platform.call('POST', `${base()}/types/${typeId}/data`, { token: owner, body: { title: 'secret', access: { read: { userIds: ['owner'] } } } });
    const path = `${base()}/types/${typeId}/data/${created.body.id}`;
    const attempts = [
      { $set: { access: misspelt } },
      { $set: { 'access.read': { users: ['owner'] } } },
      { $set: { 'access.read.users': ['owner'] } },
      { $set: { 'access.reed': { userIds: ['owner'] } } },
    ];
    for (const modifier of attempts) {
      const refused = await platform.call('PATCH', path, { token: owner, body: { modifier, baseRevision: 0 } });
      expect(refused.status, JSON.stringify(modifier)).toBe(400);
      expect(refused.body.code).toBe('DATA_INVALID_ACCESS');
      expect(refused.body.error).toMatch(/users|reed/);
    }
    const after = await platform.call('GET', path, { token: owner });
    expect(after.body).toMatchObject({ revision: 0, access: { read: { userIds: ['owner'] } } });
    expect((await platform.call('GET', path, { token: member })).status).toBe(404);
  });

  it("types' access and defaultAccess, applications and agents refuse them too", async () => {
    expectRefusedKey(await platform.call('POST', `${base()}/types`, { token: owner, body: { name: 'T', access: misspelt } }), 'access.read', 'users');
    expectRefusedKey(await platform.call('POST', `${base()}/types`, { token: owner, body: { name: 'T', defaultAccess: misspelt } }), 'defaultAccess.read', 'users');
    const typeId = await newType();
    const type = await platform.call('PATCH', `${base()}/types/${typeId}`, { token: owner, body: { modifier: { $set: { 'defaultAccess.read.users': ['owner'] } }, baseRevision: 0 } });
    expectRefusedKey(type, 'defaultAccess.read', 'users');
    expectRefusedKey(await platform.call('POST', `${base()}/applications`, { token: owner, body: { title: { en: 'App' }, access: misspelt } }), 'access.read', 'users');
    expectRefusedKey(await platform.call('POST', `${base()}/ai-agents`, { token: owner, body: { name: 'Agent', access: misspelt } }), 'access.read', 'users');
    expect((await platform.call('GET', `${base()}/applications`, { token: owner })).body.items).toEqual([]);
  });

  it('batch RLS refuses unknown keys in its request', async () => {
    const typeId = await newType();
    const refused = await platform.call('POST', `${base()}/types/${typeId}/batch-rls`, { token: owner, body: { action: 'addUserId', operations: ['read'], userId: 'owner', users: ['owner'] } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('users');
  });

  it('an entity stored with an unknown key earlier is still read and patched in its other fields', async () => {
    const typeId = await newType();
    const created = await platform.call('POST', `${base()}/types/${typeId}/data`, { token: owner, body: { title: 'old' } });
    await platform.context.store.collection(`tenant-${projectId}-${typeId}`).updateOne({ id: created.body.id }, { $set: { access: misspelt } });
    const path = `${base()}/types/${typeId}/data/${created.body.id}`;
    const read = await platform.call('GET', path, { token: owner });
    expect(read.status).toBe(200);
    expect(read.body.access).toEqual(misspelt);
    const patched = await platform.call('PATCH', path, { token: owner, body: { modifier: { $set: { title: 'new' } }, baseRevision: 0 } });
    expect(patched.status).toBe(200);
    const deleted = await platform.call('DELETE', path, { token: owner });
    expect(deleted.status).toBe(200);
    const pulled = await platform.call('GET', `${base()}/types/${typeId}/data?updatedAt=0`, { token: owner });
    expect(pulled.status).toBe(200);
    expect(pulled.body.items[0]).toMatchObject({ id: created.body.id, access: misspelt });
  });
});
