import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll, register, screenshot, screenshotFailures, startConsolePlatform, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;

beforeAll(async () => {
  platform = await startConsolePlatform();
});

afterAll(async () => {
  await platform?.close();
});

screenshotFailures(() => platform, 'tenants');

describe('tenants in a real browser', { timeout: 90_000 }, () => {
  it('an admin makes a tenant, invites a colleague who accepts, changes roles, makes a project in it and renames it; the colleague leaves', async () => {
    const ada = await register(platform, 'Ada', 'tenants');
    const bob = await register(platform, 'Bob', 'tenants');
    const page = await platform.openPage({ token: ada.token });
    await page.goto('/console/projects');
    await page.getByRole('banner').getByRole('link', { name: 'Tenants' }).click();
    await page.waitForURL(/\/console\/tenants$/);
    const tenants = page.getByRole('table', { name: 'Tenants' });
    await poll(() => tenants.getByRole('row').count()).toBe(2);
    expect(await tenants.getByRole('row').nth(1).textContent()).toMatch(/Personal.*admin/);

    await page.getByRole('button', { name: 'New tenant' }).click();
    const create = page.getByRole('form', { name: 'New tenant' });
    await create.getByRole('button', { name: 'Create' }).click();
    await poll(() => create.getByRole('alert').first().textContent()).toBe('Must not be empty');
    expect((await platform.call('GET', '/api/tenants', { token: ada.token })).body.items).toHaveLength(1);
    await create.getByLabel('Tenant name').fill('Harbour Co');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/console\/tenants\/[^/]+$/);
    const tenantId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Harbour Co');

    const invite = page.getByRole('form', { name: 'Invite to the tenant' });
    await invite.getByLabel('User id').fill(bob.id);
    await invite.getByRole('button', { name: 'Invite' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe(`Invited ${bob.id}: they become a member once they accept`);
    await poll(() => page.getByRole('table', { name: 'Pending tenant invitations' }).textContent()).toContain('member');
    await screenshot(page, 'tenants-01-invited');

    const invitation = (await platform.call('GET', '/api/me/invitations', { token: bob.token })).body.items[0];
    expect(invitation).toMatchObject({ kind: 'tenant', tenantId, name: 'Harbour Co', inviterName: 'Ada', role: 'member' });
    expect((await platform.call('POST', `/api/me/invitations/${invitation.id}/accept`, { token: bob.token })).status).toBe(200);
    await page.reload();
    const members = page.getByRole('table', { name: 'Tenant members' });
    await poll(() => members.getByRole('row').count()).toBe(3);
    await members.getByRole('button', { name: /^Make .+ admin$/ }).last().click();
    await poll(() => page.getByRole('status').textContent()).toMatch(/ is now admin$/);
    const roleOf = async (userId: string) => (await platform.call('GET', `/api/tenants/${tenantId}/members`, { token: ada.token })).body.items.find((member: { userId: string }) => member.userId === userId)?.role;
    expect(await roleOf(bob.id)).toBe('admin');

    const newProject = page.getByRole('form', { name: 'New project in the tenant' });
    await newProject.getByLabel('Project name').fill('Harbour ledger');
    await newProject.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/console\/projects\/[^/]+$/);
    await poll(() => page.getByRole('navigation', { name: 'Project' }).textContent()).toContain('Harbour ledger');
    const projectId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: ada.token })).body.tenantId).toBe(tenantId);

    await page.goto(`/console/tenants/${encodeURIComponent(tenantId)}`);
    const rename = page.getByRole('form', { name: 'Rename tenant' });
    await rename.getByLabel('Tenant name').fill('Harbour Company');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Harbour Company');
    await poll(() => page.getByRole('list', { name: 'Tenant projects' }).textContent()).toContain('Harbour ledger');
    await screenshot(page, 'tenants-02-tenant');

    // Bob, an admin now, sees the tenant's project, then leaves.
    const bobPage = await platform.openPage({ token: bob.token });
    await bobPage.goto(`/console/tenants/${encodeURIComponent(tenantId)}`);
    await poll(() => bobPage.getByRole('list', { name: 'Tenant projects' }).textContent()).toContain('Harbour ledger');
    await bobPage.getByRole('button', { name: 'Leave the tenant' }).click();
    await bobPage.getByRole('button', { name: 'Confirm leaving' }).click();
    await bobPage.waitForURL(/\/console\/tenants$/);
    await poll(() => bobPage.getByRole('table', { name: 'Tenants' }).getByRole('row').count()).toBe(2);
    expect(await roleOf(bob.id)).toBeUndefined();
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: bob.token })).status).toBe(404);
    expect(platform.pageErrors).toEqual([]);
  });

  it('a member sees the tenant without admin controls; the last admin cannot leave and is told why', async () => {
    const admin = await register(platform, 'Cyd', 'tenants');
    const member = await register(platform, 'Dee', 'tenants');
    const tenant = (await platform.call('POST', '/api/tenants', { token: admin.token, body: { name: 'Lighthouse Ltd' } })).body;
    const invited = await platform.call('PUT', `/api/tenants/${tenant.id}/members/${member.id}`, { token: admin.token, body: { role: 'member' } });
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: member.token })).status).toBe(200);

    const memberPage = await platform.openPage({ token: member.token });
    // A member makes a project in the tenant from the projects screen.
    await memberPage.goto('/console/projects');
    await memberPage.getByRole('button', { name: 'New project' }).click();
    const newProject = memberPage.getByRole('form', { name: 'New project' });
    await newProject.getByLabel('Project name').fill('Beacon log');
    await poll(() => newProject.getByLabel('Tenant').locator('option').allTextContents()).toEqual(['Personal', 'Lighthouse Ltd']);
    await newProject.getByLabel('Tenant').selectOption({ label: 'Lighthouse Ltd' });
    await newProject.getByRole('button', { name: 'Save' }).click();
    await memberPage.waitForURL(/\/console\/projects\/[^/]+$/);
    const beaconId = decodeURIComponent(new URL(memberPage.url()).pathname.split('/').at(-1)!);
    expect((await platform.call('GET', `/api/projects/${beaconId}`, { token: member.token })).body).toMatchObject({ name: 'Beacon log', tenantId: tenant.id });

    await memberPage.goto(`/console/tenants/${encodeURIComponent(tenant.id)}`);
    await poll(() => memberPage.getByRole('table', { name: 'Tenant members' }).getByRole('row').count()).toBe(3);
    expect(await memberPage.getByRole('form', { name: 'Invite to the tenant' }).count()).toBe(0);
    expect(await memberPage.getByRole('form', { name: 'Rename tenant' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /^Make / }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /^Remove / }).count()).toBe(0);

    const adminPage = await platform.openPage({ token: admin.token });
    await adminPage.goto(`/console/tenants/${encodeURIComponent(tenant.id)}`);
    await adminPage.getByRole('button', { name: 'Leave the tenant' }).click();
    await adminPage.getByRole('button', { name: 'Confirm leaving' }).click();
    await poll(() => adminPage.getByRole('table', { name: 'Tenant members' }).getByRole('alert').first().textContent()).toBe('A tenant keeps at least one admin: make someone else admin first');
    await screenshot(adminPage, 'tenants-03-last-admin');
    expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: admin.token })).body.role).toBe('admin');
    expect(platform.pageErrors).toEqual([]);
  });

  it('an admin deletes a tenant once its projects are gone: refused before, with the server\'s reason; the tenants screen after', async () => {
    const admin = await register(platform, 'Eve', 'tenants');
    const tenant = (await platform.call('POST', '/api/tenants', { token: admin.token, body: { name: 'Short-lived crew' } })).body;
    const project = (await platform.call('POST', '/api/projects', { token: admin.token, body: { name: 'Crew log', tenantId: tenant.id } })).body;
    const page = await platform.openPage({ token: admin.token });
    await page.goto(`/console/tenants/${encodeURIComponent(tenant.id)}`);
    const section = page.getByRole('region', { name: 'Delete tenant' });
    await section.getByRole('button', { name: 'Delete tenant' }).click();
    await section.getByRole('button', { name: 'Keep' }).click();
    await section.getByRole('button', { name: 'Delete tenant' }).click();
    await section.getByRole('button', { name: 'Confirm delete' }).click();
    await poll(() => section.getByRole('alert').first().textContent()).toBe('This tenant still has projects: move them to another tenant or delete them first');
    await screenshot(page, 'tenants-04-delete-refused');
    expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: admin.token })).status).toBe(200);

    expect((await platform.call('DELETE', `/api/projects/${project.id}`, { token: admin.token })).status).toBe(200);
    await section.getByRole('button', { name: 'Delete tenant' }).click();
    await section.getByRole('button', { name: 'Confirm delete' }).click();
    await page.waitForURL(/\/console\/tenants$/);
    await poll(() => page.getByRole('main').textContent()).not.toContain('Short-lived crew');
    expect((await platform.call('GET', `/api/tenants/${tenant.id}`, { token: admin.token })).status).toBe(404);
    // A personal tenant offers no such button.
    const personal = (await platform.call('GET', '/api/tenants', { token: admin.token })).body.items.find((item: { personal: boolean }) => item.personal);
    await page.goto(`/console/tenants/${encodeURIComponent(personal.id)}`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Personal');
    expect(await page.getByRole('region', { name: 'Delete tenant' }).count()).toBe(0);
    expect(platform.pageErrors).toEqual([]);
  });

  it("a member moves a personal project into the team from the project's Settings; the team's admin then sees it", async () => {
    const admin = await register(platform, 'Fay', 'tenants');
    const member = await register(platform, 'Gus', 'tenants');
    const tenant = (await platform.call('POST', '/api/tenants', { token: admin.token, body: { name: 'Harbour team' } })).body;
    const invited = await platform.call('PUT', `/api/tenants/${tenant.id}/members/${member.id}`, { token: admin.token, body: { role: 'member' } });
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: member.token })).status).toBe(200);
    const project = (await platform.call('POST', '/api/projects', { token: member.token, body: { name: 'Tide tables' } })).body;

    const page = await platform.openPage({ token: member.token });
    await page.goto(`/console/projects/${encodeURIComponent(project.id)}/settings`);
    const section = page.getByRole('region', { name: 'Tenant' });
    await poll(() => section.textContent()).toContain("In Gus's workspace (personal).");
    const form = section.getByRole('form', { name: 'Move project' });
    await form.getByLabel('Move to').selectOption({ label: 'Harbour team' });
    await form.getByRole('button', { name: 'Move' }).click();
    await poll(() => form.getByRole('status').textContent()).toBe('Moved to Harbour team');
    await poll(() => section.textContent()).toContain('In Harbour team.');
    await screenshot(page, 'tenants-05-project-moved');
    expect((await platform.call('GET', `/api/projects/${project.id}`, { token: admin.token })).body.tenantId).toBe(tenant.id);
    expect((await platform.call('GET', `/api/tenants/${tenant.id}/projects`, { token: admin.token })).body.items.map((item: { id: string }) => item.id)).toContain(project.id);
    expect(platform.pageErrors).toEqual([]);
  });
});
