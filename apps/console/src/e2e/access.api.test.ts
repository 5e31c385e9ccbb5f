import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { PASSWORD, poll, register, screenshot, screenshotFailures, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;
let owner: Account;
let member: Account;
let projectId: string;
const documentIds: string[] = [];

const projectPath = () => `/console/projects/${encodeURIComponent(projectId)}`;

async function joinProject(account: Account, permissions: string[]): Promise<void> {
  const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { userId: account.id, permissions } });
  expect(invited.status).toBe(202);
  expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: account.token })).status).toBe(200);
}

async function membersOf(): Promise<Array<{ userId: string; role: string; permissions: string[] }>> {
  return (await platform.call('GET', `/api/projects/${projectId}/members`, { token: owner.token })).body.items;
}

async function revisions(): Promise<number[]> {
  const answer = await platform.call('GET', `/api/projects/${projectId}/types/notes/data?updatedAt=0`, { token: owner.token });
  return documentIds.map((id) => answer.body.items.find((item: { id: string }) => item.id === id).revision);
}

beforeAll(async () => {
  platform = await startConsolePlatform();
  owner = await register(platform, 'Olga', 'access');
  member = await register(platform, 'Bea', 'access');
  const project = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Access rehearsal' } });
  projectId = project.body.id;
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner.token, body: { id: 'notes', name: 'notes' } })).status).toBe(201);
  for (const title of ['alpha', 'beta', 'gamma']) {
    const created = await platform.call('POST', `/api/projects/${projectId}/types/notes/data`, { token: owner.token, body: { title } });
    documentIds.push(created.body.id);
  }
});

afterAll(async () => {
  await platform?.close();
});

screenshotFailures(() => platform, 'access');

describe('administration screens in a real browser', { timeout: 90_000 }, () => {
  it('members: the owner is marked and protected; add (an invitation, then a member), change permissions, remove; a bad permission is refused beside its field', async () => {
    const page = await platform.openPage({ token: owner.token });
    await page.goto(`${projectPath()}/members`);
    const table = page.getByRole('table', { name: 'Members' });
    const ownerRow = table.getByRole('row').filter({ hasText: 'Olga' });
    await poll(() => ownerRow.textContent()).toContain('Owner');
    expect(await ownerRow.getByRole('button').count()).toBe(0);
    // The API protects the owner the same way.
    expect((await platform.call('DELETE', `/api/projects/${projectId}/members/${owner.id}`, { token: owner.token })).status).toBe(409);

    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByLabel('User id').fill(member.id);
    await page.getByLabel('Permissions').fill('viewers');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('they become a member once they accept');
    await poll(() => page.getByRole('table', { name: 'Pending invitations' }).textContent()).toContain('viewers');
    const invitation = (await platform.call('GET', '/api/me/invitations', { token: member.token })).body.items[0];
    expect((await platform.call('POST', `/api/me/invitations/${invitation.id}/accept`, { token: member.token })).status).toBe(200);

    await page.reload();
    // Case-sensitive: a user id (hex) may hold "bea".
    const memberRow = table.getByRole('row').filter({ hasText: /\bBea\b/ });
    await poll(() => memberRow.textContent()).toContain('viewers');
    await memberRow.getByRole('button', { name: 'Change permissions of Bea' }).click();
    await memberRow.getByLabel('Permissions of Bea').fill('viewers, other::x');
    await memberRow.getByRole('button', { name: 'Save' }).click();
    await poll(() => memberRow.getByRole('alert').textContent()).toMatch(/other::x|another project/i);
    await screenshot(page, 'access-01-members-refused');
    expect((await membersOf()).find((entry) => entry.userId === member.id)?.permissions).toEqual([`${projectId}::viewers`]);

    await memberRow.getByLabel('Permissions of Bea').fill('viewers, editors');
    await memberRow.getByRole('button', { name: 'Save' }).click();
    await poll(() => memberRow.textContent()).toContain('viewers, editors');
    expect((await membersOf()).find((entry) => entry.userId === member.id)?.permissions).toEqual([`${projectId}::viewers`, `${projectId}::editors`]);
    await screenshot(page, 'access-02-members');

    const leaving = await register(platform, 'Cyd', 'access');
    await joinProject(leaving, []);
    await page.reload();
    const leavingRow = table.getByRole('row').filter({ hasText: 'Cyd' });
    await leavingRow.getByRole('button', { name: 'Remove Cyd' }).click();
    await leavingRow.getByRole('button', { name: 'Confirm removal' }).click();
    await poll(() => leavingRow.count()).toBe(0);
    expect((await membersOf()).map((entry) => entry.userId).sort()).toEqual([owner.id, member.id].sort());
  });

  it("the AI switch is stored; a member without the project's update permission sees the server's refusal and changes nothing", async () => {
    const page = await platform.openPage({ token: owner.token });
    await page.goto(`${projectPath()}/settings`);
    const toggle = page.getByRole('switch', { name: 'AI features' });
    await poll(() => toggle.isChecked()).toBe(false);
    await toggle.click();
    await poll(() => page.getByRole('status').textContent()).toBe('AI features are on');
    await page.reload();
    await poll(() => toggle.isChecked()).toBe(true);
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: owner.token })).body.aiEnabled).toBe(true);
    // This platform has no AI provider: the switch says so instead of counting calls.
    await poll(() => page.getByText('No AI provider is configured on this server').count()).toBe(1);
    await screenshot(page, 'access-03-settings');

    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto(`${projectPath()}/settings`);
    const memberToggle = memberPage.getByRole('switch', { name: 'AI features' });
    await poll(() => memberToggle.isChecked()).toBe(true);
    const refusal = await platform.call('PATCH', `/api/projects/${projectId}/ai-settings`, { token: member.token, body: { aiEnabled: false } });
    expect(refusal.status).toBe(403);
    await memberToggle.click();
    await poll(() => memberPage.getByRole('alert').textContent()).toBe(refusal.body.error);
    await poll(() => memberToggle.isChecked()).toBe(true);
    await screenshot(memberPage, 'access-04-settings-refused');
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: owner.token })).body.aiEnabled).toBe(true);
  });

  it('the owner renames the project on Settings; a member without the update permission sees the refusal beside the name', async () => {
    const page = await platform.openPage({ token: owner.token });
    await page.goto(`${projectPath()}/settings`);
    const form = page.getByRole('form', { name: 'Rename project' });
    const before = (await platform.call('GET', `/api/projects/${projectId}`, { token: owner.token })).body.name as string;
    await poll(() => form.getByLabel('Project name').inputValue()).toBe(before);
    expect(await page.getByRole('navigation', { name: 'Project' }).locator('.project-name').textContent()).toBe(before);
    await form.getByLabel('Project name').fill('   ');
    await form.getByRole('button', { name: 'Rename' }).click();
    await poll(() => form.getByRole('alert').first().textContent()).toBe('Must not be empty');
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: owner.token })).body.name).toBe(before);

    await form.getByLabel('Project name').fill('Renamed garden');
    await form.getByRole('button', { name: 'Rename' }).click();
    await poll(() => form.getByRole('status').textContent()).toBe('Renamed to Renamed garden');
    // The project's navigation names it, and follows the rename without a reload.
    await poll(() => page.getByRole('navigation', { name: 'Project' }).locator('.project-name').textContent()).toBe('Renamed garden');
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: member.token })).body.name).toBe('Renamed garden');
    await screenshot(page, 'access-03b-renamed');

    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto(`${projectPath()}/settings`);
    const memberForm = memberPage.getByRole('form', { name: 'Rename project' });
    await poll(() => memberForm.getByLabel('Project name').inputValue()).toBe('Renamed garden');
    await memberForm.getByLabel('Project name').fill('Taken over');
    await memberForm.getByRole('button', { name: 'Rename' }).click();
    await poll(() => memberForm.getByRole('alert').first().textContent()).toBe('You may not change this project');
    expect((await platform.call('GET', `/api/projects/${projectId}`, { token: owner.token })).body.name).toBe('Renamed garden');
    await platform.call('PATCH', `/api/projects/${projectId}`, { token: owner.token, body: { name: before } });
  });

  it("batch RLS: a dry run shows the count and a sample and changes nothing, Apply restricts reading, and the member's console no longer lists the documents", async () => {
    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto(`${projectPath()}/types/notes`);
    const memberGrid = memberPage.getByRole('table', { name: 'Documents of notes' });
    await poll(() => memberGrid.getByRole('row').count()).toBe(4);

    const page = await platform.openPage({ token: owner.token });
    await page.goto(`${projectPath()}/types/notes`);
    await page.getByRole('link', { name: 'Batch access' }).click();
    await page.waitForURL(/\/types\/notes\/access$/);

    // Bad input: the permission the action needs is missing; refused beside it, nothing changed.
    await page.getByRole('button', { name: 'Dry run' }).click();
    await poll(() => page.getByRole('alert').first().textContent()).toMatch(/required/);
    expect(await page.getByLabel('Permission', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Permission', { exact: true }).fill('secret');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await poll(() => page.getByTestId('matching-count').textContent()).toBe('3');
    const sample = page.getByRole('table', { name: 'Affected documents (sample)' });
    expect(await sample.getByRole('row').count()).toBe(4);
    for (const id of documentIds) expect(await sample.textContent()).toContain(id);
    await screenshot(page, 'access-05-dry-run');
    expect(await revisions()).toEqual([0, 0, 0]);

    await page.getByRole('button', { name: 'Apply' }).click();
    await poll(() => page.getByTestId('modified-count').textContent()).toBe('3');
    // Every match changed: no "others" to speak of.
    expect(await page.getByRole('region', { name: 'Applied' }).getByRole('status').textContent()).toBe('Applied: 3 of 3 matching documents changed.');
    await screenshot(page, 'access-06-applied');
    expect(await revisions()).toEqual([1, 1, 1]);

    await poll(() => memberGrid.getByRole('row').count()).toBe(1);
    await memberPage.reload();
    await poll(() => memberPage.getByText('0 documents').count()).toBe(1);
    expect(await memberGrid.getByRole('row').count()).toBe(1);
    await screenshot(memberPage, 'access-07-member-after');
  });

  it("a member without the project's update permission sees the server's refusal on Apply, and nothing changes", async () => {
    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto(`${projectPath()}/types/notes/access`);
    await memberPage.getByLabel('Permission', { exact: true }).fill('open');
    await memberPage.getByRole('button', { name: 'Apply' }).click();
    await poll(() => memberPage.getByRole('alert').textContent()).toBe('Batch RLS needs the update permission on the project');
    await screenshot(memberPage, 'access-08-apply-refused');
    expect(await revisions()).toEqual([1, 1, 1]);
  });

  it("a document's access editor writes its rules as one change; the summary shows them", async () => {
    const page = await platform.openPage({ token: owner.token });
    const [first] = documentIds;
    await page.goto(`${projectPath()}/types/notes/documents/${encodeURIComponent(first!)}`);
    await page.getByRole('button', { name: 'Edit access' }).click();
    expect(await page.getByLabel('Read permission').inputValue()).toBe('secret');
    await page.getByLabel('Read users').fill(member.id);
    await page.getByLabel('Delete users').fill(owner.id);
    await page.getByRole('button', { name: 'Update access' }).click();
    await poll(() => page.getByRole('status').first().textContent()).toBe('Access updated');
    await poll(() => page.getByLabel('Access', { exact: true }).textContent()).toContain(member.id);
    await screenshot(page, 'access-09-document-access');
    const stored = await platform.call('GET', `/api/projects/${projectId}/types/notes/data/${first}`, { token: owner.token });
    expect(stored.body).toMatchObject({ revision: 2, access: { read: { permission: `${projectId}::secret`, userIds: [member.id] }, delete: { userIds: [owner.id] } } });
    expect((await platform.call('GET', `/api/projects/${projectId}/types/notes/data/${first}`, { token: member.token })).status).toBe(200);

    // The member may now read it, but changing access needs the project's update permission.
    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto(`${projectPath()}/types/notes/documents/${encodeURIComponent(first!)}`);
    await memberPage.getByRole('button', { name: 'Edit access' }).click();
    await memberPage.getByLabel('Read users').fill('');
    await memberPage.getByRole('button', { name: 'Update access' }).click();
    await poll(() => memberPage.getByRole('group', { name: 'Read' }).getByRole('alert').textContent()).toMatch(/needs update permission on the project/);
    await screenshot(memberPage, 'access-10-document-access-refused');
    expect((await platform.call('GET', `/api/projects/${projectId}/types/notes/data/${first}`, { token: owner.token })).body.revision).toBe(2);
  });

  it('the admin screen: tenants and projects for platform owners (header link), the refusal for everyone else', async () => {
    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto('/console/projects');
    await poll(() => memberPage.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    expect(await memberPage.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await memberPage.goto('/console/admin');
    await poll(() => memberPage.getByRole('alert').first().textContent()).toMatch(/platform owner/i);

    const ownerToken = await platform.promoteOwner!(owner.id);
    const page = await platform.openPage({ token: ownerToken });
    await page.goto('/console/projects');
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(/\/console\/admin$/);
    await poll(() => page.getByRole('table', { name: 'All projects' }).textContent()).toContain('Access rehearsal');
    expect(await page.getByRole('table', { name: 'Tenants' }).getByRole('row').count()).toBeGreaterThan(1);

    // A project its owner deleted: the platform owner sees when, and can bring it back.
    const lost = (await platform.call('POST', '/api/projects', { token: member.token, body: { name: 'Deleted by mistake' } })).body;
    expect((await platform.call('DELETE', `/api/projects/${lost.id}`, { token: member.token })).status).toBe(200);
    await page.reload();
    const lostRow = page.getByRole('table', { name: 'All projects' }).getByRole('row').filter({ hasText: 'Deleted by mistake' });
    await poll(() => lostRow.getByRole('button', { name: 'Restore Deleted by mistake' }).count()).toBe(1);
    await screenshot(page, 'access-11-admin');
    await lostRow.getByRole('button', { name: 'Restore Deleted by mistake' }).click();
    await poll(() => lostRow.getByRole('button').count()).toBe(0);
    expect((await platform.call('GET', `/api/projects/${lost.id}`, { token: member.token })).body.name).toBe('Deleted by mistake');

    // Users: the member made platform owner and back; a locked-out member's two-step sign-in turned off.
    const started = await platform.call('POST', '/api/me/two-factor', { token: member.token, body: { password: PASSWORD } });
    expect((await platform.call('POST', '/api/me/two-factor/confirm', { token: member.token, body: { code: TOTP.generate({ secret: Secret.fromBase32(started.body.secret) }) } })).status).toBe(200);
    await page.reload();
    const memberRow = page.getByRole('table', { name: 'All users' }).getByRole('row').filter({ hasText: member.id });
    await poll(() => memberRow.getByRole('cell').nth(3).textContent()).toBe('on');
    await memberRow.getByRole('button', { name: 'Make Bea platform owner' }).click();
    await poll(() => memberRow.getByRole('cell').nth(2).textContent()).toBe('yes');
    expect((await platform.call('GET', '/api/me', { token: member.token })).body.platformOwner).toBe(true);
    await memberRow.getByRole('button', { name: 'Remove Bea as platform owner' }).click();
    await poll(() => memberRow.getByRole('cell').nth(2).textContent()).toBe('no');
    await screenshot(page, 'access-11b-admin-users');
    await memberRow.getByRole('button', { name: 'Turn off two-step sign-in for Bea' }).click();
    await poll(() => memberRow.getByRole('cell').nth(3).textContent()).toBe('off');
    expect((await platform.call('GET', '/api/me', { token: member.token })).body).toMatchObject({ platformOwner: false, twoFactorEnabled: false });
    // Her welcome mail's link was never opened: the owner confirms the address for her.
    await poll(() => memberRow.getByRole('cell').first().textContent()).toContain('(not confirmed)');
    await memberRow.getByRole('button', { name: 'Mark the email of Bea confirmed' }).click();
    await poll(() => memberRow.getByRole('cell').first().textContent()).not.toContain('(not confirmed)');
    expect(await memberRow.getByRole('button', { name: 'Mark the email of Bea confirmed' }).count()).toBe(0);
    expect((await platform.call('GET', '/api/me', { token: member.token })).body.emailVerified).toBe(true);
    expect(platform.pageErrors).toEqual([]);
  });

  it('the owner deletes a project from Settings after typing its name, and restores it from Recently deleted; a member without the delete permission is refused', async () => {
    const doomed = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Short-lived garden' } })).body;
    const invited = await platform.call('POST', `/api/projects/${doomed.id}/members`, { token: owner.token, body: { userId: member.id } });
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: member.token })).status).toBe(200);
    expect((await platform.call('POST', `/api/projects/${doomed.id}/types`, { token: owner.token, body: { id: 'beds', name: 'Beds' } })).status).toBe(201);
    const settings = `/console/projects/${encodeURIComponent(doomed.id)}/settings`;

    const memberPage = await platform.openPage({ token: member.token });
    await memberPage.goto(settings);
    const memberSection = memberPage.getByRole('region', { name: 'Delete project' });
    await memberSection.getByLabel('Type “Short-lived garden” to confirm').fill('Short-lived garden');
    await memberSection.getByRole('button', { name: 'Delete project' }).click();
    await poll(() => memberSection.getByRole('alert').textContent()).toBe('You may not delete this project');
    expect((await platform.call('GET', `/api/projects/${doomed.id}`, { token: owner.token })).status).toBe(200);

    const page = await platform.openPage({ token: owner.token });
    await page.goto(settings);
    const section = page.getByRole('region', { name: 'Delete project' });
    const button = section.getByRole('button', { name: 'Delete project' });
    await poll(() => button.isDisabled()).toBe(true);
    await section.getByLabel('Type “Short-lived garden” to confirm').fill('Short-lived');
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel('Type “Short-lived garden” to confirm').fill('Short-lived garden');
    await screenshot(page, 'access-12-delete-project');
    await button.click();

    // Back on the projects screen: gone from the cards, listed under Recently deleted.
    await poll(() => new URL(page.url()).pathname).toBe('/console/projects');
    const deleted = page.getByRole('table', { name: 'Recently deleted projects' });
    await poll(() => deleted.getByRole('row').filter({ hasText: 'Short-lived garden' }).count()).toBe(1);
    expect(await page.getByRole('list', { name: 'Projects' }).getByText('Short-lived garden').count()).toBe(0);
    expect((await platform.call('GET', `/api/projects/${doomed.id}/types`, { token: member.token })).status).toBe(404);
    await screenshot(page, 'access-13-recently-deleted');

    await deleted.getByRole('button', { name: 'Restore Short-lived garden' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Short-lived garden is back, with all its data.');
    await poll(() => page.getByRole('list', { name: 'Projects' }).getByText('Short-lived garden').count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Recently deleted' }).count()).toBe(0);
    expect((await platform.call('GET', `/api/projects/${doomed.id}/types/beds`, { token: member.token })).status).toBe(200);
  });
});
