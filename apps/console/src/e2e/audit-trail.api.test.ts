import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { poll, register, screenshot, screenshotFailures, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;

let ada: Account;
let bob: Account;
let projectId: string;
/** How many changes the project's trail holds after the setup (types, creates, edits). */
let setupChanges = 0;
/** Ada's edits of t1 after Bob's, so revision 1 sits far down its history. */
const ADA_EDITS = 25;

async function write(account: Account, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await platform.call(method, `/api/projects/${projectId}${path}`, { token: account.token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  setupChanges += 1;
  return answer.body;
}

/** Waits until the audit service, which records changes from the event bus, holds `count` items of the project. */
async function trailHolds(count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const held = (await platform.call('GET', `/api/projects/${projectId}/audit-trail?limit=1`, { token: ada.token })).body.total;
    if (held === count) return;
    if (Date.now() > deadline) throw new Error(`the trail holds ${held} items, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const trailPath = () => `/console/projects/${encodeURIComponent(projectId)}/audit-trail`;
const trailTable = (page: Page) => page.getByRole('table', { name: 'Audit trail' });
const bodyRows = (page: Page) => trailTable(page).locator('tbody tr');
/** Each row's cells but the time: user, type, change, entity, revision. */
const shownRows = async (page: Page) => Promise.all((await bodyRows(page).all()).map(async (row) => (await row.locator('td').allInnerTexts()).slice(1)));
const trailStatus = (page: Page) => page.getByRole('status').filter({ hasText: 'Page' });
/** The total as the screen says it, e.g. `32 changes`. */
const total = (page: Page) => trailStatus(page).locator('.badge').innerText();
const pageInfo = (page: Page) => trailStatus(page).innerText();
const changes = (count: number) => (count === 1 ? '1 change' : `${count} changes`);

beforeAll(async () => {
  platform = await startConsolePlatform({ allInOne: {} });
  ada = await register(platform, 'Ada', 'audit');
  bob = await register(platform, 'Bob', 'audit');
  projectId = (await platform.call('POST', '/api/projects', { token: ada.token, body: { name: 'Audit rehearsal' } })).body.id;
  // Creating the project is the trail's first change.
  setupChanges += 1;
  const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: ada.token, body: { userId: bob.id } });
  expect(invited.status).toBe(202);
  expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: bob.token })).status).toBe(200);
  // Bob joining is a change of the trail too (Ada added him).
  setupChanges += 1;

  // Writes by two users on two types.
  await write(ada, 'POST', '/types', { id: 'tasks', name: 'Tasks' });
  await write(ada, 'POST', '/types', { id: 'notes', name: 'Notes' });
  await write(ada, 'POST', '/types/tasks/data', { id: 't1', title: 'Write report' });
  await write(ada, 'POST', '/types/notes/data', { id: 'n1', title: 'Ada note' });
  await write(bob, 'POST', '/types/tasks/data', { id: 't2', title: 'Review report' });
  await write(bob, 'PATCH', '/types/tasks/data/t1', { modifier: { $set: { title: 'Write the report' } }, baseRevision: 0 });
  await write(bob, 'POST', '/types/notes/data', { id: 'n2', title: 'Bob note' });
  for (let edit = 0; edit < ADA_EDITS; edit += 1) await write(ada, 'PATCH', '/types/tasks/data/t1', { modifier: { $set: { edits: edit + 1 } }, baseRevision: edit + 1 });
  await trailHolds(setupChanges);
});

afterAll(async () => {
  await platform?.close();
});

screenshotFailures(() => platform, 'audit');

describe('the audit trail screen in a real browser', () => {
  it('lists every change with the total and pages; filtered by user and type it shows exactly the matching items and their total', async () => {
    const page = await platform.openPage({ token: ada.token });
    await page.goto(trailPath());
    await poll(() => total(page)).toBe(changes(setupChanges));
    expect(await pageInfo(page)).toContain('Page 1 of 1');
    expect(await bodyRows(page).count()).toBe(setupChanges);
    await screenshot(page, 'audit-01-trail');

    await page.getByLabel('Per page').selectOption('10');
    await poll(() => pageInfo(page)).toContain(`Page 1 of ${Math.ceil(setupChanges / 10)}`);
    expect(await bodyRows(page).count()).toBe(10);
    await page.getByRole('button', { name: 'Next page' }).click();
    await poll(() => pageInfo(page)).toContain(`Page 2 of ${Math.ceil(setupChanges / 10)}`);
    expect(await total(page)).toBe(changes(setupChanges));
    await page.getByLabel('Per page').selectOption('50');

    await page.getByLabel('User').selectOption({ label: 'Bob' });
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Tasks' });
    await poll(() => total(page)).toBe('2 changes');
    // Time aside: user, type, change, entity, revision, newest first.
    expect(await shownRows(page)).toEqual([
      ['Bob', 'Tasks', 'updated', 'Write the report', '1'],
      ['Bob', 'Tasks', 'created', 'Review report', '0'],
    ]);
    expect(new URL(page.url()).search).toBe(`?typeId=tasks&userId=${bob.id}`);
    await screenshot(page, 'audit-02-filtered');

    // The filtered trail, every page of it, as one CSV file.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^audit-trail-${projectId}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const lines = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trim().split('\n');
    expect(lines[0]).toBe('time,timestamp,entityTypeId,entityTypeName,entityId,entityTitle,revision,changeDescription,userId,userDisplayName,permissions,previousPermissions,target,previousTarget,previousTitle,tenantId,previousTenantId,ownerId,previousOwnerId');
    expect(lines.slice(1).map((line) => line.split(',').slice(4, 8).join(','))).toEqual(['t1,Write the report,1,audit.updated', 't2,Review report,0,audit.created']);

    // The filters live in the URL: a reload shows the same filtered trail.
    await page.reload();
    await poll(() => total(page)).toBe('2 changes');
    expect(await page.getByLabel('User').inputValue()).toBe(bob.id);

    await page.getByLabel('Change type').selectOption('created');
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Notes' });
    await poll(async () => shownRows(page)).toEqual([['Bob', 'Notes', 'created', 'Bob note', '0']]);
    expect(await total(page)).toBe('1 change');
  });

  it('a range that ends before it starts shows the server refusal beside From, and the trail comes back when fixed', async () => {
    const page = await platform.openPage({ token: ada.token });
    await page.goto(trailPath());
    await poll(() => total(page)).toBe(changes(setupChanges));
    await page.getByLabel('From').fill('2026-11-20');
    await page.getByLabel('To').fill('2026-11-10');
    const fromError = page.locator('.field', { has: page.getByLabel('From') }).getByRole('alert');
    await poll(() => fromError.textContent()).toBe('Invalid from: the range start is after its end (to)');
    expect(await page.getByLabel('From').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'audit-03-bad-range');
    const today = new Date();
    const day = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    await page.getByLabel('To').fill(day(new Date(today.getTime() + 86_400_000)));
    await page.getByLabel('From').fill(day(new Date(today.getTime() - 86_400_000)));
    await poll(() => total(page)).toBe(changes(setupChanges));
    expect(await fromError.count()).toBe(0);
    await page.getByLabel('From').fill(day(new Date(today.getTime() + 86_400_000)));
    await poll(() => total(page)).toBe('0 changes');
  });

  it("an item's link opens the document's history at that revision, selected and in view", async () => {
    const page = await platform.openPage({ token: ada.token });
    await page.goto(`${trailPath()}?userId=${bob.id}&typeId=tasks`);
    await poll(() => total(page)).toBe('2 changes');
    await trailTable(page).getByRole('row', { name: /Write the report/ }).getByRole('link').click();
    await page.waitForURL(/\/documents\/t1\?revision=1$/);
    const history = page.getByRole('list', { name: 'Changes' });
    await poll(() => history.getByRole('listitem').count()).toBe(ADA_EDITS + 2);
    const current = history.locator('li[aria-current="true"]');
    expect(await current.count()).toBe(1);
    expect(await current.getByRole('button').textContent()).toBe('r1');
    expect(await current.innerText()).toContain('Bob');
    expect(await page.getByRole('heading', { name: 'State at revision 1' }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'State at revision' }).innerText()).toContain('"title": "Write the report"');
    // The diff shows what that change did (it reads the revision before as well: waited for).
    await poll(() => page.getByRole('table', { name: 'Differences' }).locator('tbody tr').allInnerTexts()).toEqual(['title\t"Write report"\t"Write the report"']);
    // Revision 1 is the second oldest of 27: the list scrolled to it.
    const inView = await current.evaluate((item) => {
      const list = item.closest('ol')!.getBoundingClientRect();
      const box = item.getBoundingClientRect();
      return box.top >= list.top && box.bottom <= list.bottom && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await screenshot(page, 'audit-04-revision');
  });

  it('a new write appears without a reload', async () => {
    const page = await platform.openPage({ token: ada.token });
    await page.goto(trailPath());
    await poll(() => total(page)).toBe(changes(setupChanges));
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await write(bob, 'POST', '/types/notes/data', { id: 'n3', title: 'Written while watching' });
    await poll(() => total(page)).toBe(changes(setupChanges));
    expect((await shownRows(page))[0]).toEqual(['Bob', 'Notes', 'created', 'Written while watching', '0']);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await screenshot(page, 'audit-05-live');
  });

  it('shows who added a member and changed its permissions under Members, saved actions under Actions and domain changes under Domains, each leading to its screen', async () => {
    expect((await platform.call('POST', `/api/projects/${projectId}/members`, { token: ada.token, body: { userId: bob.id, permissions: ['reviewers', 'editors'] } })).status).toBe(200);
    setupChanges += 1;
    const page = await platform.openPage({ token: ada.token });
    await page.goto(trailPath());
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Members' });
    await poll(async () => shownRows(page)).toEqual([
      ['Ada', 'Member', 'permissions changed\npermissions: reviewers, editors (were: none)', 'Bob', ''],
      ['Ada', 'Member', 'member added\npermissions: none', 'Bob', ''],
    ]);
    expect(new URL(page.url()).search).toBe('?typeId=project.members');
    await screenshot(page, 'audit-07-members');
    await trailTable(page).getByRole('link', { name: 'Bob' }).first().click();
    await poll(() => new URL(page.url()).pathname).toBe(`/console/projects/${encodeURIComponent(projectId)}/members`);

    // A saved action is a change too, under Actions, leading to its editor.
    const action = await write(ada, 'POST', '/actions', { title: 'Notify the team', triggers: [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'notes' } }], blocks: [] });
    await page.goto(`${trailPath()}?typeId=project.actions`);
    await poll(async () => shownRows(page)).toEqual([['Ada', 'Action', 'created', 'Notify the team', '0']]);
    await trailTable(page).getByRole('link', { name: 'Notify the team' }).click();
    await poll(() => new URL(page.url()).pathname).toBe(`/console/projects/${encodeURIComponent(projectId)}/actions/${action.id}`);

    // A domain added and pointed at an application: under Domains, leading to that application, where its domains are.
    const application = await write(ada, 'POST', '/applications', { title: { en: 'Storefront' }, routes: [] });
    const domain = await write(ada, 'POST', '/domains', { hostname: 'shop.example.org' });
    await write(ada, 'POST', `/domains/${domain.id}/assign`, { targetType: 'application', targetId: application.id });
    await page.goto(`${trailPath()}?typeId=project.domains`);
    await poll(async () => shownRows(page)).toEqual([
      ['Ada', 'Domain', `target changed\nto: latest version of application ${application.id} (was: nowhere)`, 'shop.example.org', '1'],
      ['Ada', 'Domain', 'created', 'shop.example.org', '0'],
    ]);
    await screenshot(page, 'audit-08-domains');
    await trailTable(page).getByRole('link', { name: 'shop.example.org' }).first().click();
    await poll(() => new URL(page.url()).pathname).toBe(`/console/projects/${encodeURIComponent(projectId)}/applications/${application.id}`);
    expect(platform.pageErrors).toEqual([]);
  });

  it('the Members, Settings and Actions screens each lead to the trail of what they manage', async () => {
    const page = await platform.openPage({ token: ada.token });
    const project = `/console/projects/${encodeURIComponent(projectId)}`;
    for (const [screen, link, typeId, label, typeName] of [
      ['members', 'Who added, changed and removed members: the audit trail', 'project.members', 'Members', 'Member'],
      ['settings', 'Who changed these settings: the audit trail', 'project.settings', 'Project settings', 'Project'],
      ['actions', 'Who created, changed and deleted actions: the audit trail', 'project.actions', 'Actions', 'Action'],
    ] as const) {
      await page.goto(`${project}/${screen}`);
      await page.getByRole('link', { name: link, exact: true }).click();
      await poll(() => page.url()).toBe(`${platform.url}${project}/audit-trail?typeId=${typeId}`);
      await poll(async () => (await page.getByLabel('Type', { exact: true }).locator('option:checked').innerText()).trim()).toBe(label);
      // The rows of that kind alone (the trail loads after the screen shows its filters).
      await poll(async () => [...new Set((await shownRows(page)).map((row) => row[1]))]).toEqual([typeName]);
    }
    expect(platform.pageErrors).toEqual([]);
  });

  it("names a project's new and former owner when its owner leaves the tenant and an admin takes it", async () => {
    const team = (await platform.call('POST', '/api/tenants', { token: ada.token, body: { name: 'Studio' } })).body.id;
    const invited = await platform.call('PUT', `/api/tenants/${team}/members/${bob.id}`, { token: ada.token, body: { role: 'member' } });
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: bob.token })).status).toBe(200);
    const bobs = (await platform.call('POST', '/api/projects', { token: bob.token, body: { name: "Bob's corner", tenantId: team } })).body.id;
    expect((await platform.call('DELETE', `/api/tenants/${team}/members/${bob.id}`, { token: ada.token })).status).toBe(204);

    const page = await platform.openPage({ token: ada.token });
    await page.goto(`/console/projects/${encodeURIComponent(bobs)}/audit-trail?typeId=project.settings`);
    await poll(async () => shownRows(page)).toEqual([
      ['Ada', 'Project', 'owner changed\nowner: Ada (was: Bob)', "Bob's corner", '1'],
      ['Bob', 'Project', 'created', "Bob's corner", '0'],
    ]);
    await screenshot(page, 'audit-09-owner-changed');
    expect(platform.pageErrors).toEqual([]);
  });

  it("a member removed from the project sees the server's refusal instead of the trail", async () => {
    const page = await platform.openPage({ token: bob.token });
    await page.goto(trailPath());
    await poll(() => total(page)).toBe(changes(setupChanges));
    expect((await platform.call('DELETE', `/api/projects/${projectId}/members/${bob.id}`, { token: ada.token })).status).toBe(204);
    await page.reload();
    await poll(() => page.getByRole('alert').allTextContents()).toContain('Project not found');
    expect(await trailTable(page).count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Filters' }).count()).toBe(0);
    await screenshot(page, 'audit-06-refused');
    expect(platform.pageErrors).toEqual([]);
  });
});
