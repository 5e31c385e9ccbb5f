import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, RUN_ID, poll, register, screenshot, screenshotFailures, startConsolePlatform, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;

beforeAll(async () => {
  platform = await startConsolePlatform();
});

afterAll(async () => {
  await platform?.close();
});

screenshotFailures(() => platform, 'invitations');

describe('invitation by email in a real browser', { timeout: 90_000 }, () => {
  it('the owner invites by email; the mailed link, opened by the invitee after signing in, accepts and opens the project', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const owner = await register(platform, 'Olga', 'invited');
    const invitee = await register(platform, 'Ivan', 'invited');
    const project = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Lighthouse survey' } });
    const projectId: string = project.body.id;

    const ownerPage = await platform.openPage({ token: owner.token });
    await ownerPage.goto(`/console/projects/${encodeURIComponent(projectId)}/members`);
    await ownerPage.getByRole('button', { name: 'Add member' }).click();
    await ownerPage.getByLabel('Email or user id').fill('not-an-address@');
    await ownerPage.getByRole('button', { name: 'Save' }).click();
    await poll(() => ownerPage.getByRole('form', { name: 'Add member' }).getByRole('alert').first().textContent()).toMatch(/email/i);
    expect(mails.filter((mail) => mail.subject.includes('invited you'))).toEqual([]);

    await ownerPage.getByLabel('Email or user id').fill(invitee.email);
    await ownerPage.getByLabel('Permissions').fill('editors');
    await ownerPage.getByRole('button', { name: 'Save' }).click();
    await poll(() => ownerPage.getByRole('status').textContent()).toContain(`Invited ${invitee.email}`);
    const pending = ownerPage.getByRole('table', { name: 'Pending invitations' });
    await poll(() => pending.textContent()).toContain(invitee.email);
    expect(await pending.textContent()).toContain('editors');
    await screenshot(ownerPage, 'invitations-01-pending');

    const invitationMails = () => mails.filter((mail) => mail.to === invitee.email && mail.subject.includes('invited you'));
    await poll(() => invitationMails().length).toBe(1);
    expect(invitationMails()[0]!.subject).toBe('Olga invited you to Lighthouse survey');
    const link = /https?:\/\/\S+\/console\/invitations\/[A-Za-z0-9_-]+/.exec(invitationMails()[0]!.text)?.[0];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${platform.url}/console/invitations/`)).toBe(true);

    // The invitee is not signed in in this browser: the link asks to sign in first, then shows the invitation.
    const inviteePage = await platform.openPage();
    await inviteePage.goto(link!);
    await poll(() => inviteePage.getByRole('note').textContent()).toContain('Sign in, or create an account, to see the invitation');
    await screenshot(inviteePage, 'invitations-02a-sign-in-first');
    await inviteePage.getByLabel('Email').fill(invitee.email);
    await inviteePage.getByLabel('Password').fill(PASSWORD);
    await inviteePage.getByRole('button', { name: 'Sign in' }).click();
    const invitation = inviteePage.getByRole('region', { name: 'Invitation' });
    await poll(() => invitation.textContent()).toContain('Olga invited you to the project Lighthouse survey');
    expect(new URL(inviteePage.url()).pathname).toBe(new URL(link!).pathname);
    await screenshot(inviteePage, 'invitations-02b-link');
    await invitation.getByRole('button', { name: 'Accept' }).click();
    await inviteePage.waitForURL(new RegExp(`/console/projects/${projectId}$`));
    await poll(() => inviteePage.getByRole('navigation').textContent()).toContain('Members');
    await screenshot(inviteePage, 'invitations-03-project');
    const members = (await platform.call('GET', `/api/projects/${projectId}/members`, { token: owner.token })).body.items;
    expect(members.find((member: { userId: string }) => member.userId === invitee.id)?.permissions).toEqual([`${projectId}::editors`]);

    // The link works once.
    await inviteePage.goto(link!);
    await poll(() => inviteePage.getByRole('alert').textContent()).toContain('Invitation not found');

    await ownerPage.reload();
    await poll(() => ownerPage.getByRole('table', { name: 'Members' }).textContent()).toContain('Ivan');
    await poll(() => ownerPage.getByText('No pending invitation.').count()).toBe(1);
    expect(platform.pageErrors).toEqual([]);
  });

  it('someone without an account opens the link, creates one, and comes back to the invitation', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const owner = await register(platform, 'Nora', 'invited');
    const project = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Tide tables' } });
    const projectId: string = project.body.id;
    const email = `newcomer-${RUN_ID}@example.org`;
    expect((await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { email, permissions: [] } })).status).toBe(202);
    await poll(() => mails.filter((mail) => mail.to === email).length).toBe(1);
    const link = /https?:\/\/\S+\/console\/invitations\/[A-Za-z0-9_-]+/.exec(mails.find((mail) => mail.to === email)!.text)![0];

    const page = await platform.openPage();
    await page.goto(link);
    await page.getByRole('link', { name: 'Create one' }).click();
    await poll(() => page.getByRole('note').textContent()).toContain('You were invited to a project');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Display name').fill('Newcomer');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const invitation = page.getByRole('region', { name: 'Invitation' });
    await poll(() => invitation.textContent()).toContain('Nora invited you to the project Tide tables');
    expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);
    await invitation.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(new RegExp(`/console/projects/${projectId}$`));
    expect(platform.pageErrors).toEqual([]);
  });

  it('invitations by user id wait on the invitee\'s projects screen: one declined, a tenant joined (its projects listed), a project joined (opened)', async () => {
    const owner = await register(platform, 'Pia', 'by-id');
    const invitee = await register(platform, 'Quentin', 'by-id');
    const asOwner = async (method: string, path: string, body: unknown, status: number) => {
      const answer = await platform.call(method, path, { token: owner.token, body });
      expect(answer.status, `${method} ${path}`).toBe(status);
      return answer.body;
    };
    const joined = await asOwner('POST', '/api/projects', { name: 'Buoy readings' }, 201);
    const refused = await asOwner('POST', '/api/projects', { name: 'Old charts' }, 201);
    const tenant = await asOwner('POST', '/api/tenants', { name: 'Harbour Co' }, 201);
    await asOwner('POST', '/api/projects', { name: 'Harbour ledger', tenantId: tenant.id }, 201);
    await asOwner('POST', `/api/projects/${refused.id}/members`, { userId: invitee.id, permissions: [] }, 202);
    await asOwner('PUT', `/api/tenants/${tenant.id}/members/${invitee.id}`, { role: 'admin' }, 202);
    await asOwner('POST', `/api/projects/${joined.id}/members`, { userId: invitee.id, permissions: ['editors'] }, 202);

    const page = await platform.openPage({ token: invitee.token });
    await page.goto('/console/projects');
    const invitations = page.getByRole('region', { name: 'Your invitations' });
    const items = invitations.getByRole('listitem');
    await poll(() => items.count()).toBe(3);
    expect(await items.allTextContents()).toEqual([
      expect.stringContaining('Pia invited you to the project Buoy readings (editors).'),
      expect.stringContaining('Pia invited you to the tenant Harbour Co as admin.'),
      expect.stringContaining('Pia invited you to the project Old charts.'),
    ]);
    expect(await page.getByRole('list', { name: 'Projects' }).getByRole('listitem').count()).toBe(0);
    await screenshot(page, 'invitations-04-by-id');

    await invitations.getByRole('button', { name: 'Decline the invitation to Old charts' }).click();
    await poll(() => invitations.getByRole('status').textContent()).toBe('Declined the invitation to Old charts.');
    await poll(() => items.count()).toBe(2);
    expect((await platform.call('GET', `/api/projects/${refused.id}`, { token: invitee.token })).status).toBe(404);

    await invitations.getByRole('button', { name: 'Accept the invitation to Harbour Co' }).click();
    await poll(() => invitations.getByRole('status').textContent()).toBe('You joined Harbour Co.');
    await poll(() => page.getByRole('list', { name: 'Projects' }).textContent()).toContain('Harbour ledger');
    await screenshot(page, 'invitations-05-tenant-joined');

    await invitations.getByRole('button', { name: 'Accept the invitation to Buoy readings' }).click();
    await page.waitForURL(new RegExp(`/console/projects/${joined.id}$`));
    await poll(() => page.getByRole('navigation', { name: 'Project' }).textContent()).toContain('Buoy readings');
    expect((await platform.call('GET', '/api/me/invitations', { token: invitee.token })).body.items).toEqual([]);
    expect(platform.pageErrors).toEqual([]);
  });
});
