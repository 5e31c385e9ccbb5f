import { afterAll, beforeAll, expect, it } from 'vitest';
import { register, screenshot, startConsolePlatform, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;

beforeAll(async () => {
  platform = await startConsolePlatform();
});

afterAll(async () => {
  await platform?.close();
});

const DOCUMENTS = 10_000;
/** The sample-data route creates at most 100 documents a call. */
const BATCH = 100;
const PARALLEL = 4;

it('the documents grid takes 10,000 documents without freezing: it renders a window of rows and scrolls to the last', async () => {
  const { token } = await register(platform, 'Many', 'scale');
  const project = await platform.call('POST', '/api/projects', { token, body: { name: 'Scale' } });
  const projectId: string = project.body.id;
  const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'rows', name: 'rows', schema: { type: 'object', properties: { title: { type: 'string', maxLength: 12 } } } } });
  expect(type.status).toBe(201);
  const seeds = Array.from({ length: DOCUMENTS / BATCH }, (_, seed) => seed);
  while (seeds.length > 0) {
    await Promise.all(
      seeds.splice(0, PARALLEL).map(async (seed) => {
        const created = await platform.call('POST', `/api/projects/${projectId}/types/rows/sample-data`, { token, body: { count: BATCH, seed } });
        expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
      }),
    );
  }

  const page = await platform.openPage({ token });
  const started = Date.now();
  await page.goto(`/console/projects/${projectId}/types/rows`);
  await page.getByText(`${DOCUMENTS} documents`).waitFor({ timeout: 60_000 });
  const elapsed = Date.now() - started;
  const grid = page.getByRole('table', { name: 'Documents of rows' });
  expect(await grid.getAttribute('aria-rowcount')).toBe(String(DOCUMENTS + 1));
  // Only the visible window is in the page, so the page stays responsive.
  expect(await grid.getByRole('row').count()).toBeLessThan(100);
  await screenshot(page, '09-ten-thousand');

  await page.locator('.grid-body').evaluate((body) => body.scrollTo(0, body.scrollHeight));
  await expect.poll(() => grid.locator(`[aria-rowindex="${DOCUMENTS + 1}"]`).count()).toBe(1);
  const responsive = await page.evaluate(() => new Promise<number>((resolve) => {
    const asked = performance.now();
    requestAnimationFrame(() => resolve(performance.now() - asked));
  }));
  expect(responsive).toBeLessThan(500);
  const reloadStarted = Date.now();
  await page.reload();
  await page.getByText(`${DOCUMENTS} documents`).waitFor({ timeout: 60_000 });
  console.info(`10,000 documents: grid complete ${elapsed} ms after the first navigation (pull and IndexedDB writes), ${Date.now() - reloadStarted} ms after a reload (from IndexedDB)`);
  await page.context().close();
}, 180_000);

it("a type with 200 fields gets a 200-input form that saves, a document with a 200 kB field value opens and shows it, and a 1 MB value is refused with the server's message", async () => {
  const { token } = await register(platform, 'Wide', 'scale');
  const projectId: string = (await platform.call('POST', '/api/projects', { token, body: { name: 'Wide' } })).body.id;
  const properties = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`field${index}`, { type: 'string' }]));
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'wide', name: 'wide', schema: { type: 'object', properties } } })).status).toBe(201);
  const large = 'x'.repeat(200_000);
  const document = await platform.call('POST', `/api/projects/${projectId}/types/wide/data`, { token, body: { field0: large } });
  expect(document.status, JSON.stringify(document.body).slice(0, 300)).toBe(201);

  const page = await platform.openPage({ token });
  await page.goto(`/console/projects/${projectId}/types/wide`);
  await page.getByRole('button', { name: 'New document' }).click();
  const form = page.getByRole('region', { name: 'New document' });
  expect(await form.getByRole('textbox').count()).toBe(200);
  await form.getByLabel('field199', { exact: true }).fill('last of two hundred');
  await form.getByRole('button', { name: 'Save' }).click();
  const grid = page.getByRole('table', { name: 'Documents of wide' });
  await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
  await expect.poll(() => page.getByRole('status', { name: 'Pending changes' }).textContent(), { timeout: 10_000 }).toBe('0 pending');

  await page.goto(`/console/projects/${projectId}/types/wide/documents/${document.body.id}`);
  const field = page.getByLabel('field0', { exact: true });
  await expect.poll(async () => (await field.inputValue()).length, { timeout: 15_000 }).toBe(200_000);
  await screenshot(page, '10-large-field');

  // A value past the server's limit: the write is refused, the row shows the conflict, and its
  // screen says why, with a way out.
  await page.goto(`/console/projects/${projectId}/types/wide`);
  await page.getByRole('button', { name: 'New document' }).click();
  await form.getByLabel('field1', { exact: true }).fill('y'.repeat(1_000_000));
  await form.getByRole('button', { name: 'Save' }).click();
  const refused = grid.getByRole('row').filter({ hasText: 'refused' });
  await expect.poll(() => refused.count(), { timeout: 10_000 }).toBe(1);
  await refused.getByRole('link').click();
  const conflict = page.getByRole('region', { name: 'Conflict' });
  await expect.poll(() => conflict.textContent(), { timeout: 10_000 }).toContain('The server refused this document');
  expect(await conflict.textContent()).toContain('limit');
  await screenshot(page, '11-refused');
  await conflict.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
  expect(await grid.getByRole('row').filter({ hasText: 'refused' }).count()).toBe(0);
  await page.context().close();
}, 120_000);

/** Changes seeded on one document: the bulk route applies a request's operations on one entity in order. */
const CHANGES = 10_000;
const BULK_MAX = 500;

it('a document with 10,000 changes stays usable: its history pages 100 at a time, any revision shows its state, and two revisions compare', async () => {
  const { token } = await register(platform, 'Long', 'scale');
  const projectId: string = (await platform.call('POST', '/api/projects', { token, body: { name: 'Long' } })).body.id;
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'counters', name: 'counters' } })).status).toBe(201);
  const data = `/api/projects/${projectId}/types/counters/data`;
  const created = await platform.call('POST', data, { token, body: { count: 0 } });
  const id: string = created.body.id;
  // Through the real write path (revision guard, history, events), 500 patches a request.
  for (let base = 0; base < CHANGES - 1; base += BULK_MAX) {
    const operations = Array.from({ length: Math.min(BULK_MAX, CHANGES - 1 - base) }, (_, index) => ({ op: 'patch', id, modifier: { $inc: { count: 1 } }, baseRevision: base + index }));
    const applied = await platform.call('POST', `${data}/bulk`, { token, body: { operations } });
    expect(applied.status).toBe(200);
    expect(applied.body.results.every((result: { status: number }) => result.status === 200)).toBe(true);
  }
  const last = CHANGES - 1;

  const page = await platform.openPage({ token });
  // The history is read a page at a time and states per revision, never whole.
  const historyReads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/data/${id}`)) historyReads.push(new URL(request.url()).pathname + new URL(request.url()).search);
  });
  const opened = Date.now();
  await page.goto(`/console/projects/${projectId}/types/counters/documents/${id}`);
  const history = page.getByRole('list', { name: 'Changes' });
  await expect.poll(() => history.getByRole('listitem').count(), { timeout: 30_000 }).toBe(100);
  console.info(`10,000 changes: history shown ${Date.now() - opened} ms after navigation`);
  expect(await page.getByTestId('revision').textContent()).toBe(String(last));
  expect(await history.getByRole('listitem').first().textContent()).toContain(`r${last}`);
  await page.getByRole('button', { name: /Show older changes \(9900 more\)/ }).click();
  // Older pages and a revision's state are read from the server as they are asked for.
  await expect.poll(() => history.getByRole('listitem').count()).toBe(200);
  await page.getByRole('button', { name: `Revision ${last - 150}`, exact: true }).click();
  await expect.poll(() => page.getByRole('region', { name: 'State at revision' }).textContent()).toContain(`"count": ${last - 150}`);

  // Two revisions far apart compare, and the page still paints a frame at once after it.
  const diff = page.getByRole('region', { name: 'Diff' });
  await diff.getByLabel('From revision').fill('0');
  await diff.getByLabel('To revision').fill(String(last));
  await expect.poll(() => diff.getByRole('table', { name: 'Differences' }).textContent()).toContain(String(last));
  const responsive = await page.evaluate(() => new Promise<number>((resolve) => {
    const asked = performance.now();
    requestAnimationFrame(() => resolve(performance.now() - asked));
  }));
  expect(responsive).toBeLessThan(500);
  expect(historyReads.filter((read) => read.includes('includeChanges'))).toEqual([]);
  expect(historyReads).toContain(`/api/projects/${projectId}/types/counters/data/${id}/changes?fromRevision=${last}&limit=100`);
  expect(historyReads).toContain(`/api/projects/${projectId}/types/counters/data/${id}/revisions/0`);
  await screenshot(page, '12-long-history');
  await page.context().close();
}, 300_000);
