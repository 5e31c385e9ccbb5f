import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { poll, register, screenshot, screenshotFailures, startConsolePlatform, type Account, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;
/** Every API call a kiosk page made, to check it used only the public visitors API. */
const kioskCalls: string[] = [];

let owner: Account;
let projectId: string;

const DAY = 86_400_000;
const CHECK_IN = {
  title: { en: 'Welcome to the lab', de: 'Willkommen im Labor' },
  description: { en: 'Please check in at arrival and out when you leave.', de: 'Bitte checken Sie bei Ankunft ein und beim Gehen aus.' },
  successSignOutMessage: { en: 'Thank you for visiting!', de: 'Danke für Ihren Besuch!' },
  smallPrint: { en: 'Your data is erased after the period you choose.', de: 'Ihre Daten werden nach der gewählten Frist gelöscht.' },
  deletionPeriods: [
    { duration: DAY, label: { en: '1 day', de: '1 Tag' } },
    { duration: 7 * DAY, label: { en: '7 days', de: '7 Tage' }, isDefault: true },
    { duration: 30 * DAY, label: { en: '30 days', de: '30 Tage' } },
  ],
  visitorTypeId: 'guests',
  visitorEventTypeId: 'guest-events',
};

const api = (method: string, path: string, body?: unknown) => platform.call(method, `/api/projects/${projectId}${path}`, { token: owner.token, body });
const kioskPath = () => `/kiosk/${encodeURIComponent(projectId)}/reception`;
/** The message a field points to (aria-describedby), or null while it points to none (no wait for an element that is not there). */
const fieldMessage = async (field: Locator) => {
  const id = await field.getAttribute('aria-describedby');
  return id ? field.page().locator(`[id="${id}"]`).textContent() : null;
};

/** A browser without a session, tablet-sized, in `locale`. */
async function kioskPage(locale: string): Promise<Page> {
  const page = await platform.openPage({ viewport: { width: 1024, height: 768 }, locale });
  page.on('request', (request) => new URL(request.url()).pathname.startsWith('/api/') && kioskCalls.push(`${request.method()} ${new URL(request.url()).pathname}`));
  return page;
}

/** The visitor documents of the `guests` type, as a member reads them. */
async function guests(): Promise<Array<Record<string, any>>> {
  return (await api('GET', '/types/guests/data')).body.items;
}

beforeAll(async () => {
  platform = await startConsolePlatform({ allInOne: {} });
  owner = await register(platform, 'Olga', 'kiosk');
  projectId = (await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Lab reception' } })).body.id;
  for (const type of [{ id: 'guests', name: 'Guests', schema: { type: 'object', properties: { name: { type: 'string', maxLength: 40 } } } }, { id: 'guest-events', name: 'Guest events' }]) {
    expect((await api('POST', '/types', type)).status).toBe(201);
  }
  const routes = [{ path: '/', widgetTree: { rootWidgetId: 'desk', widgets: { desk: { id: 'desk', name: 'CheckIn', data: CHECK_IN } } } }];
  expect((await api('POST', '/applications', { id: 'reception', title: { en: 'Reception' }, routes })).status).toBe(201);
});

screenshotFailures(() => platform, 'kiosk');

afterAll(async () => {
  await platform?.close();
});

describe('the public check-in kiosk', () => {
  it('checks a visitor in with a chosen deletion period and out again, with no session; the visitor appears in the console', async () => {
    const page = await kioskPage('en-US');
    await page.goto(kioskPath());
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome to the lab');
    expect(await page.getByText('Please check in at arrival').count()).toBe(1);
    expect(await page.getByRole('radio', { name: '7 days' }).isChecked()).toBe(true);
    await screenshot(page, 'kiosk-01-en');

    await page.getByLabel('Your name').fill('Ada Visitor');
    await page.getByRole('radio', { name: '30 days' }).check();
    await page.getByRole('button', { name: 'Check in' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Welcome, Ada Visitor: you are checked in.');
    const checkedIn = page.getByRole('list', { name: 'Checked in at this kiosk' }).getByRole('listitem').filter({ hasText: 'Ada Visitor' });
    expect(await checkedIn.count()).toBe(1);
    const [visitor] = (await guests()).filter((guest) => guest.name === 'Ada Visitor');
    expect(visitor).toMatchObject({ deleteOnPreference: 30 * DAY, latestEventType: 'checkIn' });
    // The secret stays in this browser: localStorage holds it, and nothing else of the page does.
    const stored = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), `platform-kiosk:${projectId}:reception`)) ?? '[]');
    expect(stored).toEqual([{ id: visitor!.id, secret: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), name: 'Ada Visitor', deleteOn: expect.any(Number) }]);
    await screenshot(page, 'kiosk-02-checked-in');

    // A reload keeps the visitor, who checks out later.
    await page.reload();
    await checkedIn.getByRole('button', { name: 'Check out' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Thank you for visiting!');
    expect(await checkedIn.count()).toBe(0);
    await poll(async () => (await guests()).find((guest) => guest.id === visitor!.id)?.latestEventType).toBe('checkOut');
    expect(kioskCalls.filter((call) => !call.startsWith(`GET /api/projects/${projectId}/visitors/kiosks/`) && !call.startsWith(`POST /api/projects/${projectId}/visitors`))).toEqual([]);

    // The owner's console lists the visitor under its type with the latest event and the erasure date.
    const console = await platform.openPage({ token: owner.token });
    await console.goto(`/console/projects/${encodeURIComponent(projectId)}/visitors`);
    const row = console.getByRole('table', { name: 'Visitors of guests' }).getByRole('row').filter({ hasText: 'Ada Visitor' });
    await poll(() => row.count()).toBe(1);
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells[2]).toBe('checkOut');
    const stillStored = (await guests()).find((guest) => guest.id === visitor!.id)!;
    expect(cells[4]).toBe(await console.evaluate((at) => new Date(at).toLocaleString(), stillStored.deleteOn as number));
    expect(stillStored.deleteOn - stillStored.latestEventAt).toBe(30 * DAY);
    await screenshot(console, 'kiosk-03-visitors-view');
    expect(platform.pageErrors).toEqual([]);
  }, 90_000);

  it('a German browser gets the German texts, the widget\'s and the kiosk\'s own', async () => {
    const page = await kioskPage('de-DE');
    await page.goto(kioskPath());
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Willkommen im Labor');
    expect(await page.getByText('Bitte checken Sie bei Ankunft ein').count()).toBe(1);
    expect(await page.getByRole('radio', { name: '7 Tage' }).isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Einchecken' }).count()).toBe(1);
    expect(await page.getByLabel('Ihr Name').count()).toBe(1);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.getByText('Ihre Daten werden nach der gewählten Frist gelöscht.').count()).toBe(1);
    await screenshot(page, 'kiosk-04-de');

    // Why a name is refused reads in German too, in the kiosk's words for the schema's rule.
    const name = page.getByLabel('Ihr Name');
    await name.fill('x'.repeat(41));
    await page.getByRole('button', { name: 'Einchecken' }).click();
    await poll(() => fieldMessage(name)).toBe('Bitte prüfen Sie Ihren Namen (höchstens 40 Zeichen).');
    await screenshot(page, 'kiosk-07-de-bad-input');
  }, 60_000);

  it('works with the keyboard alone on a 1024x768 screen', async () => {
    const page = await kioskPage('en-GB');
    await page.goto(kioskPath());
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome to the lab');
    // The name field has the focus on arrival; arrows move within the periods, Tab between controls.
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    await page.keyboard.type('Kai Keys');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe(String(7 * DAY));
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('radio', { name: '1 day' }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Check in');
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('status').textContent()).toBe('Welcome, Kai Keys: you are checked in.');
    const kai = (await guests()).find((guest) => guest.name === 'Kai Keys')!;
    expect(kai.deleteOnPreference).toBe(DAY);
    await screenshot(page, 'kiosk-05-keyboard');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);

    // Focus is back on the name field for the next visitor; Tab reaches Kai's Check out.
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    for (const _ of [1, 2, 3]) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.textContent)).toContain('Kai Keys');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Check out');
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('status').textContent()).toBe('Thank you for visiting!');
    await poll(async () => (await guests()).find((guest) => guest.id === kai.id)?.latestEventType).toBe('checkOut');
  }, 60_000);

  it('refuses a missing name and a name the type schema refuses beside the field, and checks nobody in', async () => {
    const page = await kioskPage('en-US');
    await page.goto(kioskPath());
    const name = page.getByLabel('Your name');
    await name.waitFor();
    const before = (await guests()).length;
    await page.getByRole('button', { name: 'Check in' }).click();
    await poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(await fieldMessage(name)).toBe('Please enter your name.');

    await name.fill('x'.repeat(41));
    await page.getByRole('button', { name: 'Check in' }).click();
    await poll(() => fieldMessage(name)).toBe('Please check your name: it may have at most 40 characters.');
    await screenshot(page, 'kiosk-06-bad-input');
    expect((await guests()).length).toBe(before);
    expect(await page.getByRole('list', { name: 'Checked in at this kiosk' }).count()).toBe(0);
  }, 60_000);

  it('checks arrivals in without keeping anything when the widget names no event type', async () => {
    const routes = [{ path: '/', widgetTree: { rootWidgetId: 'door', widgets: { door: { id: 'door', name: 'CheckIn', data: { visitorTypeId: 'guests' } } } } }];
    expect((await api('POST', '/applications', { id: 'arrivals', title: { en: 'Arrivals' }, routes })).status).toBe(201);
    const page = await kioskPage('en-US');
    await page.goto(`/kiosk/${encodeURIComponent(projectId)}/arrivals`);
    expect(await page.getByRole('radio', { name: '28 days' }).isChecked()).toBe(true);
    await page.getByLabel('Your name').fill('Ari Arrival');
    await page.getByRole('button', { name: 'Check in' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Welcome, Ari Arrival: you are checked in.');
    expect((await guests()).find((guest) => guest.name === 'Ari Arrival')).toMatchObject({ deleteOnPreference: 28 * DAY });
    expect(await page.getByRole('button', { name: 'Check out' }).count()).toBe(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), `platform-kiosk:${projectId}:arrivals`)).toBeNull();
  }, 60_000);

  it('says so when the application has no kiosk', async () => {
    const page = await kioskPage('en-US');
    await page.goto(`/kiosk/${encodeURIComponent(projectId)}/no-such-application`);
    await poll(() => page.getByRole('alert').textContent()).toBe('No application of this project with a CheckIn widget that names a visitor type');
  }, 30_000);
});
