import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

let platform: IdentityTestPlatform;
let owner: { token: string; user: any };
let editor: { token: string; user: any };
let viewer: { token: string; user: any };
let outsider: { token: string; user: any };

beforeAll(async () => {
  platform = await startIdentityPlatform();
  owner = await platform.register('owner@example.org');
  editor = await platform.register('editor@example.org');
  viewer = await platform.register('viewer@example.org');
  outsider = await platform.register('outsider@example.org');
});
afterAll(async () => {
  await platform?.close();
});

async function createProject(body: Record<string, unknown> = { name: 'Apollo' }) {
  const response = await platform.call('POST', '/api/projects', { token: owner.token, body });
  expect(response.status).toBe(201);
  return response.body;
}

describe('projects', () => {
  it('creates a project owned by the caller, with AI off, listed and readable by members only', async () => {
    const project = await createProject();
    expect(project).toMatchObject({ name: 'Apollo', ownerId: owner.user.id, aiEnabled: false, revision: 0 });
    expect((await platform.call('GET', '/api/projects', { token: owner.token })).body.items.map((p: any) => p.id)).toContain(project.id);
    expect((await platform.call('GET', `/api/projects/${project.id}`, { token: owner.token })).body.id).toBe(project.id);
    expect((await platform.call('GET', `/api/projects/${project.id}`, { token: outsider.token })).status).toBe(404);
    expect((await platform.call('GET', '/api/projects', { token: outsider.token })).body.items.map((p: any) => p.id)).not.toContain(project.id);
    expect((await platform.call('GET', '/api/projects')).status).toBe(401);
  });

  it('without an access rule, only the owner changes the project: members read it but cannot add members or change AI settings', async () => {
    const project = await createProject({ name: 'Owner managed' });
    expect(project.access).toEqual({ update: { userIds: [] }, delete: { userIds: [] } });
    await platform.addProjectMember(project.id, owner.token, viewer);
    expect((await platform.call('GET', `/api/projects/${project.id}`, { token: viewer.token })).status).toBe(200);
    const selfPromotion = await platform.call('POST', `/api/projects/${project.id}/members`, { token: viewer.token, body: { userId: viewer.user.id, permissions: ['admins'] } });
    expect(selfPromotion.status).toBe(403);
    expect((await platform.call('POST', `/api/projects/${project.id}/members`, { token: viewer.token, body: { userId: editor.user.id } })).status).toBe(403);
    expect((await platform.call('PATCH', `/api/projects/${project.id}/ai-settings`, { token: viewer.token, body: { aiEnabled: true } })).status).toBe(403);
    const members = (await platform.call('GET', `/api/projects/${project.id}/members`, { token: owner.token })).body.items;
    expect(members.map((m: any) => [m.userId, m.permissions])).toEqual([[owner.user.id, []], [viewer.user.id, []]]);
  });

  it('refuses a project without a name', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(201) }]) expect((await platform.call('POST', '/api/projects', { token: owner.token, body })).status).toBe(400);
  });

  it('refuses a misspelt key by name instead of creating the project without it (in the personal tenant, for a misspelt tenantId)', async () => {
    const before = (await platform.call('GET', '/api/projects', { token: owner.token })).body.items.length;
    const refused = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Misspelt', tenantID: 'some-tenant' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'body', message: 'Unrecognized key: "tenantID"' }] } });
    expect((await platform.call('GET', '/api/projects', { token: owner.token })).body.items.length).toBe(before);
  });

  it('scopes plain permission names in the project access to the new project', async () => {
    const project = await createProject({ name: 'Scoped', access: { update: { permission: 'admins' } } });
    expect(project.access).toEqual({ update: { permission: `${project.id}::admins` } });
  });

  it('refuses a project access rule with a misspelt key, naming it, and creates nothing (an empty rule would let every member change the project)', async () => {
    const before = (await platform.call('GET', '/api/projects', { token: owner.token })).body.items.length;
    for (const access of [{ update: { users: [owner.user.id] } }, { updat: { userIds: [owner.user.id] } }]) {
      const refused = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Misspelt', access } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/access.*(users|updat)/);
    }
    expect((await platform.call('GET', '/api/projects', { token: owner.token })).body.items.length).toBe(before);
  });
});

describe('members', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await createProject({ name: 'Members', access: { update: { permission: 'admins' } } })).id;
  });
  const members = (token: string) => platform.call('GET', `/api/projects/${projectId}/members`, { token });

  it('adds members with scoped permissions once they accept, and replaces them on a second add', async () => {
    const added = await platform.addProjectMember(projectId, owner.token, editor, ['admins', 'editors']);
    expect(added).toMatchObject({ projectId, userId: editor.user.id, role: 'member', permissions: [`${projectId}::admins`, `${projectId}::editors`] });
    const replaced = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: editor.user.id, permissions: [`${projectId}::admins`] } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.permissions).toEqual([`${projectId}::admins`]);
    expect((await members(editor.token)).body.items.map((m: any) => [m.userId, m.role])).toEqual([[owner.user.id, 'owner'], [editor.user.id, 'member']]);
    // A misspelt `permission` is refused by name: taken as absent, it would replace them with none.
    const misspelt = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: editor.user.id, permission: ['editors'] } });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'body', message: 'Unrecognized key: "permission"' }] } });
    expect((await members(owner.token)).body.items.find((m: any) => m.userId === editor.user.id).permissions).toEqual([`${projectId}::admins`]);
  });

  it('lets a member with the update permission manage members, and nobody else', async () => {
    await platform.addProjectMember(projectId, editor.token, viewer);
    const denied = await platform.call('POST', `/api/projects/${projectId}/members`, { token: viewer.token, body: { userId: outsider.user.id } });
    expect(denied.status).toBe(403);
    expect((await platform.call('POST', `/api/projects/${projectId}/members`, { token: outsider.token, body: { userId: outsider.user.id } })).status).toBe(404);
    expect((await members(outsider.token)).status).toBe(404);
    expect((await members(owner.token)).body.items).toHaveLength(3);
  });

  it('refuses foreign-scoped permissions, bad names and changes to the owner', async () => {
    const cases: Array<[unknown, number]> = [
      [{ userId: viewer.user.id, permissions: ['other-project::admins'] }, 400],
      [{ userId: viewer.user.id, permissions: ['has space'] }, 400],
      [{ permissions: [] }, 400],
      [{ userId: owner.user.id, permissions: ['x'] }, 409],
    ];
    for (const [body, status] of cases) expect((await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body })).status).toBe(status);
    const viewerNow = (await members(owner.token)).body.items.find((m: any) => m.userId === viewer.user.id);
    expect(viewerNow.permissions).toEqual([]);
  });

  it('removes members (a member may leave), never the owner', async () => {
    expect((await platform.call('DELETE', `/api/projects/${projectId}/members/${owner.user.id}`, { token: owner.token })).status).toBe(409);
    expect((await platform.call('DELETE', `/api/projects/${projectId}/members/${editor.user.id}`, { token: viewer.token })).status).toBe(403);
    expect((await platform.call('DELETE', `/api/projects/${projectId}/members/${viewer.user.id}`, { token: viewer.token })).status).toBe(204);
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: viewer.token })).status).toBe(404);
    expect((await platform.call('DELETE', `/api/projects/${projectId}/members/${viewer.user.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('renaming a project (PATCH /api/projects/{projectId})', () => {
  it('needs the update permission, validates the name and changes nothing when refused', async () => {
    const project = await createProject({ name: 'Old name', access: { update: { userIds: [owner.user.id] } } });
    await platform.addProjectMember(project.id, owner.token, viewer);
    const path = `/api/projects/${project.id}`;
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 'Fine', ownerId: outsider.user.id }, { title: 'Fine' }]) {
      const refused = await platform.call('PATCH', path, { token: owner.token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect((await platform.call('PATCH', path, { token: viewer.token, body: { name: 'By a viewer' } })).status).toBe(403);
    expect((await platform.call('PATCH', path, { token: outsider.token, body: { name: 'By an outsider' } })).status).toBe(404);
    expect((await platform.call('GET', path, { token: owner.token })).body).toMatchObject({ name: 'Old name', revision: 0 });

    const renamed = await platform.call('PATCH', path, { token: owner.token, body: { name: '  New name ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: project.id, name: 'New name', ownerId: owner.user.id, revision: 1 });
    expect(renamed.body.updatedAt).toBeGreaterThanOrEqual(project.updatedAt);
    // Members see the new name at once (the access cache of every process forgets the project).
    expect((await platform.call('GET', path, { token: viewer.token })).body.name).toBe('New name');
    expect((await platform.call('GET', '/api/projects', { token: viewer.token })).body.items.find((item: { id: string }) => item.id === project.id).name).toBe('New name');
  });
});

describe('AI settings', () => {
  it('needs the project update permission; validates aiEnabled; answers { success: true }', async () => {
    const project = await createProject({ name: 'AI', access: { update: { userIds: [owner.user.id] } } });
    await platform.addProjectMember(project.id, owner.token, viewer);
    const path = `/api/projects/${project.id}/ai-settings`;
    for (const body of [{}, { aiEnabled: 'yes' }, { aiEnabled: 1 }, { aiEnabled: null }]) expect((await platform.call('PATCH', path, { token: owner.token, body })).status).toBe(400);
    expect((await platform.call('PATCH', path, { token: viewer.token, body: { aiEnabled: true } })).status).toBe(403);
    expect((await platform.call('PATCH', path, { token: outsider.token, body: { aiEnabled: true } })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${project.id}`, { token: owner.token })).body.aiEnabled).toBe(false);
    const enabled = await platform.call('PATCH', path, { token: owner.token, body: { aiEnabled: true } });
    expect(enabled).toMatchObject({ status: 200, body: { success: true } });
    expect((await platform.call('GET', `/api/projects/${project.id}`, { token: owner.token })).body.aiEnabled).toBe(true);
  });

  it('answers 500 { success: false, error } when the update fails', async () => {
    const now = Date.UTC(2026, 10, 1);
    const fragile = await startIdentityPlatform({ clock: () => now });
    try {
      const { token } = await fragile.register('fragile@example.org');
      const project = (await fragile.call('POST', '/api/projects', { token, body: { name: 'Fragile' } })).body;
      expect((await fragile.call('GET', `/api/projects/${project.id}`, { token })).status).toBe(200);
      // The store goes away after the (cached) permission check: the write itself fails.
      await fragile.context.store.close();
      const response = await fragile.call('PATCH', `/api/projects/${project.id}/ai-settings`, { token, body: { aiEnabled: true } });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, error: expect.any(String) });
    } finally {
      await fragile.close();
    }
  });
});
