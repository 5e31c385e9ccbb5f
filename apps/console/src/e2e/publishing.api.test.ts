import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_ID, poll, register, screenshot, screenshotFailures, slowReads, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;

let ada: Account;
let bob: Account;
let projectId: string;

const applicationsPath = () => `/console/projects/${encodeURIComponent(projectId)}/applications`;
const api = (account: Account, method: string, path: string, body?: unknown) => platform.call(method, `/api/projects/${projectId}${path}`, { token: account.token, body });
const streamVideoPage = (url: string) => [{ path: '/', widgetTree: { rootWidgetId: 'video', widgets: { video: { id: 'video', name: 'StreamVideo', data: { url } } } } }];

beforeAll(async () => {
  // Domains are verified without a DNS lookup here (docs/publishing.md: development only).
  platform = await startConsolePlatform({ allInOne: { env: { PUBLISHING_DOMAIN_VERIFICATION: 'off' } } });
  ada = await register(platform, 'Ada', 'publishing');
  bob = await register(platform, 'Bob', 'publishing');
  projectId = (await platform.call('POST', '/api/projects', { token: ada.token, body: { name: 'Publishing rehearsal' } })).body.id;
  const invited = await platform.call('POST', `/api/projects/${projectId}/members`, { token: ada.token, body: { userId: bob.id } });
  expect(invited.status).toBe(202);
  expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: bob.token })).status).toBe(200);
});

screenshotFailures(() => platform, 'publishing');

afterAll(async () => {
  await platform?.close();
});

describe('applications, versions and domains in the console', () => {
  it('creates an application, edits its routes, publishes two versions, pins a domain to version 1 and previews it; unpinned it serves version 2', async () => {
    const page = await platform.openPage({ token: ada.token });
    await page.goto(applicationsPath());
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Application id (optional)').fill('shop');
    await page.getByLabel('Title (English)').fill('Shop');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('table', { name: 'Applications' }).getByRole('link', { name: 'Shop' }).click();
    await page.waitForURL(/\/applications\/shop$/);
    // Every read of the application is slow: "Saved." and "Published" must mean the screen shows them, and what is typed after them stays.
    await slowReads(page, '**/api/projects/*/applications/shop');

    await page.getByLabel('Routes').fill(JSON.stringify(streamVideoPage('https://video.example.org/first')));
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Publish' }).click();
    await poll(() => page.getByText('Published version 1.').count()).toBe(1);

    await page.getByLabel('Title').fill(JSON.stringify({ en: 'Shop, second edition', de: 'Laden, zweite Ausgabe' }));
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Shop, second edition');
    await page.getByRole('button', { name: 'Publish' }).click();
    await poll(() => page.getByText('Published version 2.').count()).toBe(1);
    const versions = page.getByRole('table', { name: 'Versions' });
    await poll(() => versions.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['2', '1']);
    expect(await versions.locator('tbody tr').first().textContent()).toContain('Shop, second edition');

    const hostname = `shop-${RUN_ID}.example.org`;
    await page.getByLabel('Hostname').fill(hostname);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const row = page.getByRole('table', { name: 'Domains' }).getByRole('row').filter({ hasText: hostname });
    await poll(() => row.textContent()).toContain('pending');
    await row.getByRole('button', { name: 'Verify' }).click();
    await poll(() => row.getByRole('cell').first().textContent()).toBe('verified');

    await row.getByLabel(`Version for ${hostname}`).selectOption({ label: 'version 1' });
    await row.getByRole('button', { name: 'Pin' }).click();
    await poll(() => row.textContent()).toContain('version 1 (pinned)');
    await row.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: `Preview of ${hostname}` });
    await poll(() => preview.textContent()).toContain('Serves version 1 (pinned)');
    expect(await preview.locator('pre').textContent()).toContain('https://video.example.org/first');
    await screenshot(page, 'publishing-01-pinned-preview');

    // What the console showed is what the public resolution answers.
    const resolved = await platform.call('GET', `/api/public/domains/${hostname}`);
    expect(resolved.body).toMatchObject({ pinned: true, version: { versionNumber: 1 } });

    await row.getByRole('button', { name: 'Unpin' }).click();
    await poll(() => row.textContent()).toContain('the latest version');
    await row.getByRole('button', { name: 'Preview' }).click();
    await poll(() => preview.textContent()).toContain('Serves version 2 (the latest)');
    await screenshot(page, 'publishing-02-unpinned-preview');
    expect(platform.pageErrors).toEqual([]);
  }, 120_000);

  it('refuses routes that break the widget registry rules and a malformed hostname beside their fields, and changes nothing', async () => {
    expect((await api(ada, 'POST', '/applications', { id: 'lobby', title: { en: 'Lobby' }, routes: [] })).status).toBe(201);
    const page = await platform.openPage({ token: ada.token });
    await page.goto(`${applicationsPath()}/lobby`);
    const routes = page.getByLabel('Routes');
    const badCheckIn = [{ path: '/', widgetTree: { rootWidgetId: 'desk', widgets: { desk: { id: 'desk', name: 'CheckIn', data: { deletionPeriods: [] } } } } }];
    await routes.fill(JSON.stringify(badCheckIn));
    await page.getByLabel('Title').fill('"Lobby"');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => routes.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await routes.getAttribute('aria-describedby')}"]`).textContent()).toBe('routes.0.widgetTree.widgets.desk.data.deletionPeriods: must not be empty');
    const title = page.getByLabel('Title');
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await title.getAttribute('aria-describedby')}"]`).textContent()).toContain('title');

    const hostname = page.getByLabel('Hostname');
    await hostname.fill('not a hostname');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await poll(() => hostname.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await hostname.getAttribute('aria-describedby')}"]`).textContent()).toMatch(/hostname/i);
    await screenshot(page, 'publishing-03-bad-input');

    const stored = (await api(ada, 'GET', '/applications/lobby')).body;
    expect(stored).toMatchObject({ revision: 0, title: { en: 'Lobby' }, routes: [] });
    expect((await api(ada, 'GET', '/domains')).body.filter((domain: { targetId?: string }) => domain.targetId === 'lobby')).toEqual([]);
  }, 60_000);

  it("shows a member without update permission on the application the server's refusal to publish, and publishes nothing", async () => {
    const created = await api(ada, 'POST', '/applications', { id: 'locked', title: { en: 'Locked' }, routes: [], access: { update: { userIds: [ada.id] } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const page = await platform.openPage({ token: bob.token });
    await page.goto(`${applicationsPath()}/locked`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Locked');
    await page.getByRole('button', { name: 'Publish' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /permission|may not|forbidden/i });
    await poll(() => refusal.count()).toBe(1);
    const direct = await api(bob, 'POST', '/applications/locked/publish');
    expect(direct.status).toBe(403);
    expect(await refusal.textContent()).toBe(direct.body.error);
    await screenshot(page, 'publishing-04-refused');
    expect((await api(ada, 'GET', '/applications/locked/versions')).body).toEqual([]);
    expect(platform.pageErrors).toEqual([]);
  }, 60_000);
});
