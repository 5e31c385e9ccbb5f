import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot, startConsolePlatform, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  platform = await startConsolePlatform();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await platform?.close();
});

const pages: Page[] = [];

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await platform.browser.newContext({ baseURL: platform.gateway.url, viewport: { width: 1400, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  pages.push(page);
  return { context, page };
}

// What each open page showed when a test failed, to look at beside the error.
afterEach(async (test) => {
  if (test.task.result?.state !== 'fail') return;
  for (const [index, page] of pages.entries()) await screenshot(page, `failed-${index}`).catch(() => undefined);
});

const EMAIL = 'ada@example.org';
const PASSWORD = 'correct horse battery';
const SCHEMA = { type: 'object', properties: { title: { type: 'string' }, priority: { type: 'integer' } } };

describe('the console in a real browser', () => {
  it('signs up, creates a project, a type with a schema and three documents, edits one; history shows each change with its author; restores revision 0', async () => {
    const { page } = await newPage();
    await page.goto('/console/');
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    await screenshot(page, '01-sign-in');
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Display name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Project name').fill('Analytical engine');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/console\/projects\/[^/]+$/);

    await page.getByRole('button', { name: 'New type' }).click();
    await page.getByLabel('Type id').fill('notes');
    await page.getByLabel('Schema (JSON Schema, optional)').fill(JSON.stringify(SCHEMA));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Show schema' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Schema of notes' }).textContent()).toContain('"priority"');
    await screenshot(page, '02-types');

    await page.getByRole('link', { name: 'notes' }).click();
    for (const [title, priority] of [['First note', '1'], ['Second note', '2'], ['Third note', '3']] as const) {
      await page.getByRole('button', { name: 'New document' }).click();
      await page.getByLabel('title', { exact: true }).fill(title);
      await page.getByLabel('priority', { exact: true }).fill(priority);
      await page.getByRole('button', { name: 'Save' }).click();
    }
    const grid = page.getByRole('table', { name: 'Documents of notes' });
    await expect.poll(() => grid.getByRole('row').count()).toBe(4);
    await expect.poll(() => page.getByRole('status', { name: 'Pending changes' }).textContent()).toBe('0 pending');
    await screenshot(page, '03-documents');

    await grid.getByRole('row').filter({ hasText: 'Second note' }).getByRole('link').click();
    await page.getByLabel('title', { exact: true }).fill('Second note, edited');
    await page.getByRole('button', { name: 'Save' }).click();
    const history = page.getByRole('list', { name: 'Changes' });
    await expect.poll(() => history.getByRole('listitem').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => history.getByRole('listitem').first().textContent()).toContain('Ada Lovelace');
    expect(await history.getByRole('listitem').last().textContent()).toContain('Ada Lovelace');

    await page.getByRole('button', { name: 'Revision 0' }).click();
    await page.getByRole('button', { name: 'Restore this revision' }).click();
    await expect.poll(() => history.getByRole('listitem').count(), { timeout: 10_000 }).toBe(3);
    expect(await page.getByTestId('revision').textContent()).toBe('2');
    expect(await page.getByRole('region', { name: 'State at revision' }).textContent()).toContain('"Second note"');
    await screenshot(page, '04-document-history');
  }, 120_000);
});
