import { ACCOUNT_DELETED_FILTER, type AccountDeleted } from '@platform/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const PASSWORD = 'correct horse battery';
let platform: IdentityTestPlatform;

beforeAll(async () => {
  // Development mode: the first account's promotion link is logged, for the platform-owner case.
  platform = await startIdentityPlatform({ dev: true });
  // What the other services are told (audit erases the names it copied): deleted accounts only.
  await platform.context.bus.subscribe<AccountDeleted>({ durable: 'test-account-deletions', filter: ACCOUNT_DELETED_FILTER, handler: async ({ data }) => void announced.push(data.userId) });
});
const announced: string[] = [];
afterAll(async () => {
  await platform?.close();
});

async function ok(method: string, path: string, who: { token: string } | undefined, body?: unknown, status = 200): Promise<any> {
  const answer = await platform.call(method, path, { ...(who ? { token: who.token } : {}), body });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

describe('deleting one’s own account', () => {
  it('the only platform owner cannot delete the account; nothing changes', async () => {
    const owner = await platform.register('only-owner@example.org');
    const path = platform.logs.map((line) => line.promotionPath).find((logged): logged is string => typeof logged === 'string');
    await ok('GET', path!, undefined);
    const plan = await ok('GET', '/api/me/deletion', owner);
    expect(plan.blockers).toEqual([{ reason: 'last-platform-owner', message: expect.stringContaining('only platform owner') }]);
    const refused = await platform.call('DELETE', '/api/me', { token: owner.token, body: { password: PASSWORD } });
    expect(refused).toMatchObject({ status: 409, body: { code: 'IDENTITY_ACCOUNT_STILL_NEEDED', details: { blockers: [{ reason: 'last-platform-owner' }] } } });
    expect((await ok('GET', '/api/me', owner)).platformOwner).toBe(true);
    expect(announced).not.toContain(owner.user.id);
  });

  it('leaves everything, deletes its own projects, ends every session and token, and frees the email', async () => {
    const ada = await platform.register('ada-deleting@example.org', { displayName: 'Ada' });
    const bea = await platform.register('bea-staying@example.org', { displayName: 'Bea' });
    const own = await ok('POST', '/api/projects', ada, { name: 'Ada’s own' }, 201);
    await platform.addProjectMember(own.id, ada.token, bea);
    const theirs = await ok('POST', '/api/projects', bea, { name: 'Bea’s' }, 201);
    await platform.addProjectMember(theirs.id, bea.token, ada);
    const pending = await ok('POST', '/api/projects', bea, { name: 'Bea’s second' }, 201);
    const invitation = await ok('POST', `/api/projects/${pending.id}/members`, bea, { userId: ada.user.id }, 202);
    const token = (await ok('POST', '/api/me/tokens', ada, { name: 'script' }, 201)).token;

    const plan = await ok('GET', '/api/me/deletion', ada);
    expect(plan).toEqual({ blockers: [], deletedProjects: [{ id: own.id, name: 'Ada’s own' }], leftTenants: [] });

    const wrong = await platform.call('DELETE', '/api/me', { token: ada.token, body: { password: 'not the password' } });
    expect(wrong).toMatchObject({ status: 403, body: { code: 'IDENTITY_WRONG_PASSWORD' } });
    for (const body of [{}, { password: PASSWORD, force: true }]) expect((await platform.call('DELETE', '/api/me', { token: ada.token, body })).status).toBe(400);
    expect((await ok('GET', `/api/projects/${own.id}`, bea)).name).toBe('Ada’s own');
    expect(announced).not.toContain(ada.user.id);

    const deleted = await platform.call('DELETE', '/api/me', { token: ada.token, body: { password: PASSWORD } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(plan);
    expect(deleted.headers.get('set-cookie')).toMatch(/^session=;.*Expires=Thu, 01 Jan 1970/);
    await vi.waitFor(() => expect(announced).toContain(ada.user.id));

    expect((await platform.call('GET', '/api/me', { token: ada.token })).status).toBe(401);
    expect((await platform.call('GET', '/api/me', { token })).status).toBe(401);
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'ada-deleting@example.org', password: PASSWORD } })).status).toBe(401);
    expect((await platform.call('GET', `/api/users/${ada.user.id}`, { token: bea.token })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${own.id}`, { token: bea.token })).status).toBe(404);
    expect((await ok('GET', `/api/projects/${theirs.id}/members`, bea)).items.map((member: any) => member.userId)).toEqual([bea.user.id]);
    expect((await ok('GET', `/api/projects/${pending.id}/invitations`, bea)).items.map((item: any) => item.id)).not.toContain(invitation.id);

    const again = await platform.register('ada-deleting@example.org', { displayName: 'Ada again' });
    expect(again.user.id).not.toBe(ada.user.id);
    expect((await ok('GET', '/api/projects', again)).items).toEqual([]);
  });

  it("the only admin of a tenant with other members must hand it over first; then the tenant's projects it owns pass to the new admin", async () => {
    const chief = await platform.register('chief@example.org', { displayName: 'Chief' });
    const crew = await platform.register('crew@example.org', { displayName: 'Crew' });
    const tenant = await ok('POST', '/api/tenants', chief, { name: 'Harbour' }, 201);
    await platform.addTenantMember(tenant.id, chief.token, crew, 'member');
    const project = await ok('POST', '/api/projects', chief, { name: 'Harbour log', tenantId: tenant.id }, 201);

    const refused = await platform.call('DELETE', '/api/me', { token: chief.token, body: { password: PASSWORD } });
    expect(refused).toMatchObject({ status: 409, body: { code: 'IDENTITY_ACCOUNT_STILL_NEEDED', details: { blockers: [{ reason: 'last-tenant-admin', tenantId: tenant.id, tenantName: 'Harbour' }] } } });
    expect(refused.body.error).toContain('Harbour');
    expect((await ok('GET', `/api/projects/${project.id}`, chief)).ownerId).toBe(chief.user.id);

    await ok('PUT', `/api/tenants/${tenant.id}/members/${crew.user.id}`, chief, { role: 'admin' });
    expect(await ok('GET', '/api/me/deletion', chief)).toMatchObject({ blockers: [], deletedProjects: [], leftTenants: [{ id: tenant.id, name: 'Harbour' }] });
    await ok('DELETE', '/api/me', chief, { password: PASSWORD });
    expect((await ok('GET', `/api/projects/${project.id}`, crew)).ownerId).toBe(crew.user.id);
    expect((await ok('GET', `/api/tenants/${tenant.id}/members`, crew)).items.map((member: any) => member.userId)).toEqual([crew.user.id]);
  });

  it('a shared tenant the account alone belongs to goes with it, projects included', async () => {
    const solo = await platform.register('solo@example.org');
    const tenant = await ok('POST', '/api/tenants', solo, { name: 'Solo works' }, 201);
    const project = await ok('POST', '/api/projects', solo, { name: 'Solo project', tenantId: tenant.id }, 201);
    expect((await ok('GET', '/api/me/deletion', solo)).deletedProjects.map((p: any) => p.id)).toContain(project.id);
    await ok('DELETE', '/api/me', solo, { password: PASSWORD });
    const again = await platform.register('solo@example.org');
    expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: again.token })).status).toBe(404);
  });
});
