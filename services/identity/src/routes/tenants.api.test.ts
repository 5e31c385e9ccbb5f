import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

type Account = { token: string; user: any };

let platform: IdentityTestPlatform;
let counter = 0;

beforeAll(async () => {
  platform = await startIdentityPlatform();
});
afterAll(async () => {
  await platform?.close();
});

async function account(name: string): Promise<Account> {
  counter += 1;
  return platform.register(`${name}-${counter}@example.org`, { displayName: name });
}

async function ok(method: string, path: string, who: Account, body?: unknown, status = 200) {
  const response = await platform.call(method, path, { token: who.token, body });
  expect({ method, path, status: response.status, body: response.status === status ? undefined : response.body }).toEqual({ method, path, status, body: undefined });
  return response.body;
}

/** An organization with an admin, a plain member and one project of each of them. */
async function organization() {
  const admin = await account('Ada');
  const member = await account('Bob');
  const tenant = await ok('POST', '/api/tenants', admin, { name: 'Acme' }, 201);
  await platform.addTenantMember(tenant.id, admin.token, member, 'member');
  const adminProject = await ok('POST', '/api/projects', admin, { name: 'Admin project', tenantId: tenant.id }, 201);
  const memberProject = await ok('POST', '/api/projects', member, { name: 'Member project', tenantId: tenant.id }, 201);
  return { admin, member, tenant, adminProject, memberProject };
}

describe('personal tenant', () => {
  it('exists from registration and owns projects created without a tenant', async () => {
    const ann = await account('Ann');
    const { items } = await ok('GET', '/api/tenants', ann);
    expect(items).toEqual([expect.objectContaining({ id: `personal-${ann.user.id}`, personal: true, role: 'admin', name: "Ann's workspace" })]);
    const project = await ok('POST', '/api/projects', ann, { name: 'Mine' }, 201);
    expect(project.tenantId).toBe(`personal-${ann.user.id}`);
  });

  it('takes no other members', async () => {
    const ann = await account('Ann');
    const bob = await account('Bob');
    const response = await platform.call('PUT', `/api/tenants/personal-${ann.user.id}/members/${bob.user.id}`, { token: ann.token, body: { role: 'member' } });
    expect([response.status, response.body.code]).toEqual([409, 'IDENTITY_PERSONAL_TENANT']);
    expect((await ok('GET', `/api/tenants/personal-${ann.user.id}/members`, ann)).items).toHaveLength(1);
  });
});

describe('tenant lifecycle', () => {
  it('creates, lists, renames and shows members to members only', async () => {
    const { admin, member, tenant } = await organization();
    const outsider = await account('Eve');
    expect(tenant).toMatchObject({ name: 'Acme', personal: false, role: 'admin', createdBy: admin.user.id });
    expect((await ok('GET', '/api/tenants', member)).items.map((t: any) => [t.id, t.role])).toContainEqual([tenant.id, 'member']);
    expect((await ok('GET', '/api/tenants', outsider)).items.map((t: any) => t.id)).not.toContain(tenant.id);
    expect((await ok('PATCH', `/api/tenants/${tenant.id}`, admin, { name: 'Acme Corp' })).name).toBe('Acme Corp');
    expect((await ok('GET', `/api/tenants/${tenant.id}`, member)).name).toBe('Acme Corp');
    expect((await ok('GET', `/api/tenants/${tenant.id}/members`, member)).items.map((m: any) => [m.userId, m.role])).toEqual([
      [admin.user.id, 'admin'],
      [member.user.id, 'member'],
    ]);
    for (const [method, path, body] of [
      ['GET', `/api/tenants/${tenant.id}`, undefined],
      ['GET', `/api/tenants/${tenant.id}/members`, undefined],
      ['PATCH', `/api/tenants/${tenant.id}`, { name: 'Mine now' }],
      ['PUT', `/api/tenants/${tenant.id}/members/${outsider.user.id}`, { role: 'admin' }],
    ] as const) {
      expect({ method, path, status: (await platform.call(method, path, { token: outsider.token, body })).status }).toEqual({ method, path, status: 404 });
    }
    expect((await ok('GET', `/api/tenants/${tenant.id}`, admin)).name).toBe('Acme Corp');
  });

  it('lets only admins rename and manage members', async () => {
    const { member, tenant, admin } = await organization();
    const newcomer = await account('Cy');
    for (const [method, path, body] of [
      ['PATCH', `/api/tenants/${tenant.id}`, { name: 'Taken over' }],
      ['PUT', `/api/tenants/${tenant.id}/members/${newcomer.user.id}`, { role: 'member' }],
      ['PUT', `/api/tenants/${tenant.id}/members/${member.user.id}`, { role: 'admin' }],
      ['DELETE', `/api/tenants/${tenant.id}/members/${admin.user.id}`, undefined],
    ] as const) {
      const response = await platform.call(method, path, { token: member.token, body });
      expect({ method, path, status: response.status, code: response.body?.code }).toEqual({ method, path, status: 403, code: 'IDENTITY_TENANT_ADMIN_ONLY' });
    }
    expect((await ok('GET', `/api/tenants/${tenant.id}/members`, admin)).items.map((m: any) => [m.userId, m.role])).toEqual([
      [admin.user.id, 'admin'],
      [member.user.id, 'member'],
    ]);
  });

  it('refuses bad input with 400, changing nothing', async () => {
    const { admin, tenant } = await organization();
    for (const [method, path, body] of [
      ['POST', '/api/tenants', {}],
      ['POST', '/api/tenants', { name: '   ' }],
      ['PATCH', `/api/tenants/${tenant.id}`, { name: 'x'.repeat(201) }],
      ['PUT', `/api/tenants/${tenant.id}/members/${admin.user.id}`, { role: 'owner' }],
    ] as const) {
      expect({ method, path, status: (await platform.call(method, path, { token: admin.token, body })).status }).toEqual({ method, path, status: 400 });
    }
    expect((await ok('GET', `/api/tenants/${tenant.id}`, admin)).name).toBe('Acme');
    expect((await ok('GET', `/api/tenants/${tenant.id}/members`, admin)).items).toHaveLength(2);
  });

  it('keeps at least one admin', async () => {
    const { admin, member, tenant } = await organization();
    const demote = await platform.call('PUT', `/api/tenants/${tenant.id}/members/${admin.user.id}`, { token: admin.token, body: { role: 'member' } });
    expect([demote.status, demote.body.code]).toEqual([409, 'IDENTITY_LAST_TENANT_ADMIN']);
    const leave = await platform.call('DELETE', `/api/tenants/${tenant.id}/members/${admin.user.id}`, { token: admin.token });
    expect([leave.status, leave.body.code]).toEqual([409, 'IDENTITY_LAST_TENANT_ADMIN']);
    await ok('PUT', `/api/tenants/${tenant.id}/members/${member.user.id}`, admin, { role: 'admin' });
    await ok('PUT', `/api/tenants/${tenant.id}/members/${admin.user.id}`, admin, { role: 'member' });
    expect((await ok('GET', `/api/tenants/${tenant.id}`, admin)).role).toBe('member');
  });

  it('creates projects only in tenants the caller belongs to', async () => {
    const { tenant } = await organization();
    const outsider = await account('Eve');
    const response = await platform.call('POST', '/api/projects', { token: outsider.token, body: { name: 'Sneaky', tenantId: tenant.id } });
    expect([response.status, response.body.code]).toEqual([404, 'IDENTITY_TENANT_NOT_FOUND']);
    expect((await ok('GET', '/api/projects', outsider)).items).toEqual([]);
  });
});

describe('tenant admin powers', () => {
  it('sees and manages every project of the tenant without being a member of it', async () => {
    const { admin, member, tenant, memberProject, adminProject } = await organization();
    const helper = await account('Hal');
    expect((await ok('GET', '/api/projects', admin)).items.map((p: any) => p.id)).toEqual(expect.arrayContaining([adminProject.id, memberProject.id]));
    expect((await ok('GET', `/api/tenants/${tenant.id}/projects`, admin)).items.map((p: any) => p.id)).toEqual([adminProject.id, memberProject.id]);
    expect((await ok('GET', `/api/tenants/${tenant.id}/projects`, member)).items.map((p: any) => p.id)).toEqual([memberProject.id]);
    expect((await ok('GET', `/api/projects/${memberProject.id}`, admin)).id).toBe(memberProject.id);
    await platform.addProjectMember(memberProject.id, admin.token, helper, ['editors']);
    await ok('PATCH', `/api/projects/${memberProject.id}/ai-settings`, admin, { aiEnabled: true });
    expect((await ok('GET', `/api/projects/${memberProject.id}`, member)).aiEnabled).toBe(true);
    // A plain member has no such reach.
    expect((await platform.call('GET', `/api/projects/${adminProject.id}`, { token: member.token })).status).toBe(404);
  });
});

describe('member removal', () => {
  it("removes the user from every project of the tenant and hands the user's projects to the admin", async () => {
    const { admin, member, tenant, adminProject, memberProject } = await organization();
    await platform.addProjectMember(adminProject.id, admin.token, member);
    const elsewhere = await ok('POST', '/api/projects', member, { name: 'Personal' }, 201);

    await ok('DELETE', `/api/tenants/${tenant.id}/members/${member.user.id}`, admin, undefined, 204);

    expect((await ok('GET', '/api/projects', member)).items.map((p: any) => p.id)).toEqual([elsewhere.id]);
    for (const project of [adminProject, memberProject]) {
      expect((await platform.call('GET', `/api/projects/${project.id}`, { token: member.token })).status).toBe(404);
    }
    expect((await ok('GET', `/api/projects/${memberProject.id}`, admin)).ownerId).toBe(admin.user.id);
    expect((await ok('GET', `/api/projects/${memberProject.id}/members`, admin)).items.map((m: any) => [m.userId, m.role])).toEqual([[admin.user.id, 'owner']]);
    expect((await ok('GET', `/api/tenants/${tenant.id}/members`, admin)).items.map((m: any) => m.userId)).toEqual([admin.user.id]);
    expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: member.token })).status).toBe(404);
  });

  it("an admin removed loses every project of the tenant at once, those it reached only as an admin too", async () => {
    const { admin, member, tenant, memberProject } = await organization();
    const second = await account('Sue');
    await platform.addTenantMember(tenant.id, admin.token, second, 'admin');
    // Read once as a tenant admin, not a project member: the standing is cached.
    expect((await ok('GET', `/api/projects/${memberProject.id}`, second)).id).toBe(memberProject.id);
    await ok('DELETE', `/api/tenants/${tenant.id}/members/${second.user.id}`, admin, undefined, 204);
    expect((await platform.call('GET', `/api/projects/${memberProject.id}`, { token: second.token })).status).toBe(404);
    expect((await ok('GET', `/api/projects/${memberProject.id}`, member)).id).toBe(memberProject.id);
  });

  it('lets a member leave on its own', async () => {
    const { admin, member, tenant } = await organization();
    await ok('DELETE', `/api/tenants/${tenant.id}/members/${member.user.id}`, member, undefined, 204);
    expect((await ok('GET', `/api/tenants/${tenant.id}/members`, admin)).items.map((m: any) => m.userId)).toEqual([admin.user.id]);
  });
});

describe('platform administration', () => {
  it('lists tenants, projects and users for platform owners, a page at a time', async () => {
    const { tenant, adminProject } = await organization();
    const root = await platform.signIn('root', { platformOwner: true });
    const call = async (path: string) => {
      const response = await platform.call('GET', path, { token: root });
      expect(response.status).toBe(200);
      return response.body;
    };
    const users = await call('/api/admin/users?limit=2&page=1');
    expect(users).toMatchObject({ page: 1, limit: 2 });
    expect(users.items).toHaveLength(2);
    expect(users.total).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(users)).not.toContain('passwordHash');
    const lastPage = Math.ceil(users.total / 2);
    expect((await call(`/api/admin/users?limit=2&page=${lastPage}`)).items.length).toBe(users.total - 2 * (lastPage - 1));
    const tenants = await call('/api/admin/tenants?limit=200');
    expect(tenants.items.map((t: any) => t.id)).toContain(tenant.id);
    expect(tenants.total).toBe(tenants.items.length);
    expect((await call('/api/admin/projects?limit=200')).items.map((p: any) => p.id)).toContain(adminProject.id);
    expect((await platform.call('GET', '/api/admin/users?limit=500', { token: root })).status).toBe(400);
    // Number() would read these as 2, 0 and 5; only decimal text is a number (kit numberText).
    for (const query of ['page=0x2', 'limit=', 'limit=%205']) expect((await platform.call('GET', `/api/admin/tenants?${query}`, { token: root })).status).toBe(400);
  });

  it('answers 403 to everyone else and 401 without a session', async () => {
    const { admin } = await organization();
    for (const path of ['/api/admin/tenants', '/api/admin/projects', '/api/admin/users']) {
      const response = await platform.call('GET', path, { token: admin.token });
      expect({ path, status: response.status, code: response.body.code }).toEqual({ path, status: 403, code: 'IDENTITY_PLATFORM_OWNER_ONLY' });
      expect((await platform.call('GET', path)).status).toBe(401);
    }
  });
});

describe('deleting a tenant', () => {
  it('is for admins of a shared tenant without live projects; its members and invitations go with it', async () => {
    const { admin, member, tenant, adminProject, memberProject } = await organization();
    const outsider = await account('Oz');
    const invitation = await ok('PUT', `/api/tenants/${tenant.id}/members/${outsider.user.id}`, admin, { role: 'member' }, 202);

    expect((await platform.call('DELETE', `/api/tenants/${tenant.id}`, { token: member.token })).body.code).toBe('IDENTITY_TENANT_ADMIN_ONLY');
    expect((await platform.call('DELETE', `/api/tenants/${tenant.id}`, { token: admin.token })).body.code).toBe('IDENTITY_TENANT_HAS_PROJECTS');
    const personal = (await ok('GET', '/api/tenants', admin)).items.find((item: any) => item.personal);
    expect((await platform.call('DELETE', `/api/tenants/${personal.id}`, { token: admin.token })).body.code).toBe('IDENTITY_PERSONAL_TENANT');
    expect((await ok('GET', `/api/tenants/${tenant.id}/members`, admin)).items).toHaveLength(2);

    await ok('DELETE', `/api/projects/${adminProject.id}`, admin);
    await ok('DELETE', `/api/projects/${memberProject.id}`, admin);
    await ok('DELETE', `/api/tenants/${tenant.id}`, admin, undefined, 204);
    for (const who of [admin, member]) {
      expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: who.token })).status).toBe(404);
      expect((await ok('GET', '/api/tenants', who)).items.map((item: any) => item.id)).not.toContain(tenant.id);
    }
    expect((await ok('GET', '/api/me/invitations', outsider)).items.map((item: any) => item.id)).not.toContain(invitation.id);
    // A deleted project of it stays its owner's to restore.
    expect((await ok('POST', `/api/projects/${memberProject.id}/restore`, member)).name).toBe('Member project');
  });
});

describe('moving a project to another tenant', () => {
  it("moves a member's personal project into the team, whose admins then manage it; refused to others and into other tenants", async () => {
    const { admin, member, tenant } = await organization();
    const stranger = await account('Sly');
    const strangers = await ok('POST', '/api/tenants', stranger, { name: 'Elsewhere' }, 201);
    const mine = await ok('POST', '/api/projects', member, { name: 'Started alone' }, 201);
    await platform.addProjectMember(mine.id, member.token, stranger);
    expect((await platform.call('GET', `/api/projects/${mine.id}`, { token: admin.token })).status).toBe(404);

    const move = (who: Account, tenantId: string) => platform.call('POST', `/api/projects/${mine.id}/move`, { token: who.token, body: { tenantId } });
    expect((await move(stranger, tenant.id)).body.code).toBe('IDENTITY_FORBIDDEN');
    expect((await move(member, strangers.id)).body.code).toBe('IDENTITY_TENANT_NOT_FOUND');
    expect((await move(member, 'no-such-tenant')).body.code).toBe('IDENTITY_TENANT_NOT_FOUND');
    expect((await move(admin, tenant.id)).status).toBe(404);
    expect((await ok('GET', `/api/projects/${mine.id}`, member)).tenantId).not.toBe(tenant.id);

    const moved = await move(member, tenant.id);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: mine.id, tenantId: tenant.id, revision: mine.revision + 1 });
    expect((await ok('GET', `/api/projects/${mine.id}`, admin)).name).toBe('Started alone');
    expect((await ok('GET', `/api/tenants/${tenant.id}/projects`, admin)).items.map((project: any) => project.id)).toContain(mine.id);
    expect((await ok('GET', `/api/projects/${mine.id}/members`, member)).items.map((m: any) => m.userId)).toContain(stranger.user.id);
    expect((await move(member, tenant.id)).body.revision).toBe(moved.body.revision);
  });
});
