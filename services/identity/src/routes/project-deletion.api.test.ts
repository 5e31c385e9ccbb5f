import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const DAY = 24 * 60 * 60 * 1000;
let now = Date.UTC(2026, 0, 1);
let platform: IdentityTestPlatform;
let owner: { token: string; user: any };
let admin: { token: string; user: any };
let invitee: { token: string; user: any };

beforeAll(async () => {
  platform = await startIdentityPlatform({ clock: () => now, config: { projectRestorePeriodMs: 7 * DAY } });
  owner = await platform.register('deleting-owner@example.org');
  admin = await platform.register('tenant-admin@example.org');
  invitee = await platform.register('invitee@example.org');
});
afterAll(async () => {
  await platform?.close();
});

async function ok(method: string, path: string, who: { token: string }, body?: unknown, status = 200): Promise<any> {
  const answer = await platform.call(method, path, { token: who.token, body });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

describe('project deletion in identity', () => {
  it('is restorable for the configured period and refused after it with 409, the project staying deleted', async () => {
    const project = await ok('POST', '/api/projects', owner, { name: 'Short lived' }, 201);
    const deleted = await ok('DELETE', `/api/projects/${project.id}`, owner);
    expect(deleted).toMatchObject({ deletedAt: now, restorableUntil: now + 7 * DAY, revision: project.revision + 1 });

    now += 7 * DAY - 1;
    expect((await ok('GET', '/api/projects/deleted', owner)).items.map((p: any) => p.id)).toContain(project.id);
    now += 1;
    expect((await ok('GET', '/api/projects/deleted', owner)).items.map((p: any) => p.id)).not.toContain(project.id);
    const late = await platform.call('POST', `/api/projects/${project.id}/restore`, { token: owner.token });
    expect(late).toMatchObject({ status: 409, body: { code: 'IDENTITY_PROJECT_RESTORE_EXPIRED' } });
    expect((await platform.call('GET', `/api/projects/${project.id}`, { token: owner.token })).status).toBe(404);
  });

  it("lets the tenant's admins restore a member's project, and lists deleted projects newest first", async () => {
    const tenant = await ok('POST', '/api/tenants', admin, { name: 'Deleting tenant' }, 201);
    await platform.addTenantMember(tenant.id, admin.token, owner, 'member');
    const first = await ok('POST', '/api/projects', owner, { name: 'First', tenantId: tenant.id }, 201);
    const second = await ok('POST', '/api/projects', owner, { name: 'Second', tenantId: tenant.id }, 201);
    await ok('DELETE', `/api/projects/${first.id}`, owner);
    now += 1000;
    await ok('DELETE', `/api/projects/${second.id}`, admin);
    const listedToAdmin = (await ok('GET', '/api/projects/deleted', admin)).items.map((p: any) => p.id);
    expect(listedToAdmin).toEqual([second.id, first.id]);
    expect((await ok('POST', `/api/projects/${first.id}/restore`, admin)).name).toBe('First');
    expect((await ok('GET', `/api/tenants/${tenant.id}/projects`, admin)).items.map((p: any) => p.id)).toEqual([first.id]);
  });

  it("hides a deleted project's invitations and refuses to accept them until it is restored", async () => {
    const project = await ok('POST', '/api/projects', owner, { name: 'Inviting' }, 201);
    const invitation = await ok('POST', `/api/projects/${project.id}/members`, owner, { userId: invitee.user.id }, 202);
    const mailed = `mailed-${project.id}@example.org`;
    await ok('POST', `/api/projects/${project.id}/members`, owner, { email: mailed }, 202);
    const link = /\/console\/invitations\/([A-Za-z0-9_-]+)/.exec(platform.mailsTo(mailed).at(-1)!.text)![1]!;
    await ok('DELETE', `/api/projects/${project.id}`, owner);
    expect((await ok('GET', '/api/me/invitations', invitee)).items.map((i: any) => i.id)).not.toContain(invitation.id);
    // Answering meanwhile is refused and uses nothing up: the restore brings both back as they were.
    for (const path of [`/api/me/invitations/${invitation.id}/accept`, `/api/me/invitations/${invitation.id}/decline`, `/api/invitations/${link}/accept`, `/api/invitations/${link}/decline`]) {
      expect((await ok('POST', path, invitee, undefined, 404)).code).toBe('IDENTITY_INVITATION_NOT_FOUND');
    }
    await ok('POST', `/api/projects/${project.id}/restore`, owner);
    expect((await ok('GET', `/api/projects/${project.id}/invitations`, owner)).items.map((i: any) => i.email ?? i.userId).sort()).toEqual([invitee.user.id, mailed].sort());
    expect((await ok('GET', `/api/invitations/${link}`, invitee)).projectName).toBe('Inviting');
    expect((await ok('GET', '/api/me/invitations', invitee)).items.map((i: any) => i.id)).toContain(invitation.id);
    expect((await ok('POST', `/api/me/invitations/${invitation.id}/accept`, invitee)).projectId).toBe(project.id);
  });

});
