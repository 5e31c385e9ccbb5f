import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const DAY = 24 * 60 * 60 * 1000;
let now = Date.UTC(2026, 10, 1);
let platform: IdentityTestPlatform;
let counter = 0;

beforeAll(async () => {
  platform = await startIdentityPlatform({ clock: () => now });
});
afterAll(async () => {
  await platform?.close();
});

type Account = { token: string; user: { id: string } };

async function account(name: string): Promise<Account> {
  counter += 1;
  return platform.register(`${name}-${counter}@example.org`, { displayName: name });
}

async function projectOf(owner: Account): Promise<string> {
  return (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: `Project ${counter}` } })).body.id;
}

/** A user whose every profile field is for project peers only, as the spec's default privacy says. */
async function privateVictim(): Promise<Account> {
  const victim = await account('Victim');
  const profile = await platform.call('PUT', '/api/me/profile', { token: victim.token, body: { firstName: 'Vera', lastName: 'Secret', email: { privacy: 'projects' } } });
  expect(profile.status).toBe(200);
  return victim;
}

const profileAs = async (viewer: Account, userId: string) => (await platform.call('GET', `/api/users/${userId}`, { token: viewer.token })).body.profileFields;
const myInvitations = async (who: Account) => (await platform.call('GET', '/api/me/invitations', { token: who.token })).body.items;

describe('project invitations', () => {
  it('adding a user to a project shows nothing of its profile and makes it no member until it accepts', async () => {
    const attacker = await account('Mallory');
    const victim = await privateVictim();
    const projectId = await projectOf(attacker);

    const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: attacker.token, body: { userId: victim.user.id, permissions: ['editors'] } });
    expect(invited.status).toBe(202);
    expect(invited.body).toMatchObject({ kind: 'project', projectId, userId: victim.user.id, invitedBy: attacker.user.id, permissions: [`${projectId}::editors`], expiresAt: now + 14 * DAY });
    expect(await profileAs(attacker, victim.user.id)).toEqual({});
    const members = (await platform.call('GET', `/api/projects/${projectId}/members`, { token: attacker.token })).body.items;
    expect(members.map((member: { userId: string }) => member.userId)).toEqual([attacker.user.id]);
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: victim.token })).status).toBe(404);
    expect((await platform.call('DELETE', `/api/projects/${projectId}/members/${victim.user.id}`, { token: attacker.token })).status).toBe(404);

    expect(await myInvitations(victim)).toEqual([expect.objectContaining({ id: invited.body.id, kind: 'project', projectId, name: expect.any(String) })]);
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/decline`, { token: victim.token })).status).toBe(204);
    expect(await myInvitations(victim)).toEqual([]);
    expect(await profileAs(attacker, victim.user.id)).toEqual({});
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: victim.token })).status).toBe(404);
  });

  it('makes the user a member with the invited permissions once it accepts; then project peers see its project fields', async () => {
    const owner = await account('Olga');
    const invitee = await privateVictim();
    const projectId = await projectOf(owner);
    const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: invitee.user.id, permissions: ['editors'] } });
    const accepted = await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: invitee.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ projectId, userId: invitee.user.id, role: 'member', permissions: [`${projectId}::editors`] });
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: invitee.token })).status).toBe(200);
    expect((await profileAs(owner, invitee.user.id)).email).toEqual({ value: expect.stringContaining('victim-'), privacy: 'projects' });
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: invitee.token })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}/invitations`, { token: owner.token })).body.items).toEqual([]);
  });

  it('answers a user id that does not exist exactly like one that does', async () => {
    const owner = await account('Olga');
    const real = await account('Real');
    const projectId = await projectOf(owner);
    const toReal = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: real.user.id } });
    const toNobody = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: 'f0e1d2c3-0000-4000-8000-000000000000' } });
    expect(toNobody.status).toBe(toReal.status);
    expect(Object.keys(toNobody.body).sort()).toEqual(Object.keys(toReal.body).sort());
    expect({ ...toNobody.body, id: 'x', userId: 'x' }).toEqual({ ...toReal.body, id: 'x', userId: 'x' });
    const pending = (await platform.call('GET', `/api/projects/${projectId}/invitations`, { token: owner.token })).body.items;
    expect(pending.map((invitation: { userId: string }) => invitation.userId).sort()).toEqual([real.user.id, 'f0e1d2c3-0000-4000-8000-000000000000'].sort());
  });

  it('lets only the invited user answer, the inviter withdraw, and lapses after 14 days', async () => {
    const owner = await account('Olga');
    const invitee = await account('Ivan');
    const stranger = await account('Sam');
    const projectId = await projectOf(owner);
    const invite = async () => (await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: invitee.user.id } })).body;

    const first = await invite();
    for (const answer of ['accept', 'decline']) expect((await platform.call('POST', `/api/me/invitations/${first.id}/${answer}`, { token: stranger.token })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}/invitations`, { token: stranger.token })).status).toBe(404);
    expect((await platform.call('DELETE', `/api/projects/${projectId}/invitations/${first.id}`, { token: stranger.token })).status).toBe(404);
    expect((await invite()).id).toBe(first.id);
    expect((await platform.call('DELETE', `/api/projects/${projectId}/invitations/${first.id}`, { token: owner.token })).status).toBe(204);
    expect((await platform.call('DELETE', `/api/projects/${projectId}/invitations/${first.id}`, { token: owner.token })).status).toBe(404);
    expect(await myInvitations(invitee)).toEqual([]);
    expect((await platform.call('POST', `/api/me/invitations/${first.id}/accept`, { token: invitee.token })).status).toBe(404);

    const second = await invite();
    now += 14 * DAY;
    expect(await myInvitations(invitee)).toEqual([]);
    expect((await platform.call('POST', `/api/me/invitations/${second.id}/accept`, { token: invitee.token })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: invitee.token })).status).toBe(404);
    const renewed = await invite();
    expect(renewed.expiresAt).toBe(now + 14 * DAY);
    expect((await platform.call('POST', `/api/me/invitations/${renewed.id}/accept`, { token: invitee.token })).status).toBe(200);
  });

  it('refuses bad input with 400 naming the field and creates no invitation', async () => {
    const owner = await account('Olga');
    const invitee = await account('Ivan');
    const projectId = await projectOf(owner);
    for (const [body, field] of [
      [{ userId: invitee.user.id, permissions: ['has space'] }, 'body.permissions.0'],
      [{ permissions: [] }, 'body.userId'],
      [{ userId: 'x'.repeat(101) }, 'body.userId'],
    ] as const) {
      const response = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body });
      expect({ status: response.status, fields: response.body.details.issues.map((issue: { field: string }) => issue.field) }).toEqual({ status: 400, fields: [field] });
    }
    expect((await platform.call('GET', `/api/projects/${projectId}/invitations`, { token: owner.token })).body.items).toEqual([]);
    expect(await myInvitations(invitee)).toEqual([]);
  });
});

describe('tenant invitations', () => {
  it('adding a user to a tenant makes it no member until it accepts, and hides whether the user exists', async () => {
    const admin = await account('Ada');
    const invitee = await privateVictim();
    const tenant = (await platform.call('POST', '/api/tenants', { token: admin.token, body: { name: 'Acme' } })).body;
    const path = (userId: string) => `/api/tenants/${tenant.id}/members/${userId}`;

    const invited = await platform.call('PUT', path(invitee.user.id), { token: admin.token, body: { role: 'admin' } });
    const toNobody = await platform.call('PUT', path('no-such-user'), { token: admin.token, body: { role: 'admin' } });
    expect([invited.status, toNobody.status]).toEqual([202, 202]);
    expect({ ...toNobody.body, id: 'x', userId: 'x' }).toEqual({ ...invited.body, id: 'x', userId: 'x' });
    expect(invited.body).toMatchObject({ kind: 'tenant', tenantId: tenant.id, role: 'admin', invitedBy: admin.user.id });
    expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: invitee.token })).status).toBe(404);
    expect((await platform.call('GET', `/api/tenants/${tenant.id}/members`, { token: admin.token })).body.items).toHaveLength(1);
    expect(await profileAs(admin, invitee.user.id)).toEqual({});
    expect((await platform.call('GET', `/api/tenants/${tenant.id}/invitations`, { token: admin.token })).body.items).toHaveLength(2);

    // The invitee learns who invited them (their display name), though the inviter's profile is not theirs to read.
    expect(await myInvitations(invitee)).toEqual([expect.objectContaining({ id: invited.body.id, kind: 'tenant', tenantId: tenant.id, name: 'Acme', role: 'admin', inviterName: 'Ada' })]);
    expect(await profileAs(invitee, admin.user.id)).toEqual({});
    const accepted = await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: invitee.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ tenantId: tenant.id, userId: invitee.user.id, role: 'admin' });
    expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: invitee.token })).body.role).toBe('admin');
    expect((await platform.call('PUT', path(invitee.user.id), { token: admin.token, body: { role: 'member' } })).status).toBe(200);

    const pending = (await platform.call('GET', `/api/tenants/${tenant.id}/invitations`, { token: admin.token })).body.items;
    expect(pending.map((invitation: { userId: string }) => invitation.userId)).toEqual(['no-such-user']);
    expect((await platform.call('GET', `/api/tenants/${tenant.id}/invitations`, { token: invitee.token })).status).toBe(403);
    expect((await platform.call('DELETE', `/api/tenants/${tenant.id}/invitations/${pending[0].id}`, { token: admin.token })).status).toBe(204);
    expect((await platform.call('GET', `/api/tenants/${tenant.id}/invitations`, { token: admin.token })).body.items).toEqual([]);
  });
});

describe('the notice of an invitation by user id', () => {
  type Mail = { to: string; subject: string; text: string };
  const noticesTo = (email: string, on = platform) => on.logs.map((line) => line.mail as Mail | undefined).filter((mail): mail is Mail => mail?.to === email && mail.subject.includes(' invited you to '));

  it("mails the invited account that it waits in the console, the inviter's name and the project's or tenant's; an id nobody has gets the same answer", async () => {
    const inviter = await account('Ines');
    const invitee = await platform.register(`notified-${counter}@example.org`, { displayName: 'Noel' });
    const projectId = await projectOf(inviter);
    const projectName = `Project ${counter}`;
    const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: inviter.token, body: { userId: invitee.user.id, permissions: [] } });
    const toNobody = await platform.call('POST', `/api/projects/${projectId}/members`, { token: inviter.token, body: { userId: 'nobody-has-this-id', permissions: [] } });
    expect([invited.status, toNobody.status]).toEqual([202, 202]);
    await expect.poll(() => noticesTo(`notified-${counter}@example.org`).length).toBe(1);
    const [notice] = noticesTo(`notified-${counter}@example.org`);
    expect(notice!.subject).toBe(`Ines invited you to ${projectName}`);
    expect(notice!.text).toContain(`Ines invited you to the project "${projectName}"`);
    expect(notice!.text).toContain(`${platform.url}/console/projects`);

    const tenant = (await platform.call('POST', '/api/tenants', { token: inviter.token, body: { name: 'Notice Co' } })).body;
    expect((await platform.call('PUT', `/api/tenants/${tenant.id}/members/${invitee.user.id}`, { token: inviter.token, body: { role: 'member' } })).status).toBe(202);
    await expect.poll(() => noticesTo(`notified-${counter}@example.org`).map((mail) => mail.subject)).toEqual([`Ines invited you to ${projectName}`, 'Ines invited you to Notice Co']);
  });

  it('sends no notice past the invitation mail limits, and the invitation still waits', async () => {
    const limited = await startIdentityPlatform({ clock: () => now, config: { invitationMailLimit: { perHour: 1 } } });
    try {
      const inviter = await limited.register('limit-inviter@example.org', { displayName: 'Lim' });
      const first = await limited.register('limit-first@example.org');
      const second = await limited.register('limit-second@example.org');
      const projectId = (await limited.call('POST', '/api/projects', { token: inviter.token, body: { name: 'Limited' } })).body.id;
      for (const invitee of [first, second]) {
        expect((await limited.call('POST', `/api/projects/${projectId}/members`, { token: inviter.token, body: { userId: invitee.user.id, permissions: [] } })).status).toBe(202);
      }
      await expect.poll(() => noticesTo('limit-first@example.org', limited).length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(noticesTo('limit-second@example.org', limited)).toEqual([]);
      expect((await limited.call('GET', '/api/me/invitations', { token: second.token })).body.items).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });
});
