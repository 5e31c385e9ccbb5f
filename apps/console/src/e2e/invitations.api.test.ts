import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { RUN_ID, screenshot, startConsolePlatform, type ConsolePlatform } from './console-platform';

/** Loads in the browser share the machine with the other tests: give them time. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

const PASSWORD = 'correct horse battery';
let platform: ConsolePlatform;
const contexts: BrowserContext[] = [];
const pages: Page[] = [];
/** Uncaught errors in any page: none is expected. */
const pageErrors: string[] = [];

interface Account {
  id: string;
  token: string;
  email: string;
}

async function register(name: string): Promise<Account> {
  const email = `${name.toLowerCase()}-invited-${RUN_ID}@example.org`;
  const answer = await platform.call('POST', '/api/auth/register', { body: { email, password: PASSWORD, displayName: name } });
  expect(answer.status).toBe(201);
  return { id: answer.body.user.id, token: answer.body.token, email };
}

/** A browser context of its own: signed in with the session cookie when given one. */
async function browserOf(token?: string): Promise<Page> {
  const context = await platform.browser.newContext({ baseURL: platform.url, viewport: { width: 1400, height: 900 } });
  if (token) await context.addCookies([{ name: 'session', value: token, url: platform.url }]);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  pages.push(page);
  return page;
}

beforeAll(async () => {
  platform = await startConsolePlatform();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await platform?.close();
});

afterEach(async (test) => {
  if (test.task.result?.state !== 'fail') return;
  for (const [index, page] of pages.entries()) await screenshot(page, `invitations-failed-${index}`).catch(() => undefined);
});

describe('invitation by email in a real browser', { timeout: 90_000 }, () => {
  it('the owner invites by email; the mailed link, opened by the invitee after signing in, accepts and opens the project', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const owner = await register('Olga');
    const invitee = await register('Ivan');
    const project = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Lighthouse survey' } });
    const projectId: string = project.body.id;

    const ownerPage = await browserOf(owner.token);
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
    const inviteePage = await browserOf();
    await inviteePage.goto(link!);
    await inviteePage.getByLabel('Email').fill(invitee.email);
    await inviteePage.getByLabel('Password').fill(PASSWORD);
    await inviteePage.getByRole('button', { name: 'Sign in' }).click();
    const invitation = inviteePage.getByRole('region', { name: 'Invitation' });
    await poll(() => invitation.textContent()).toContain('Olga invited you to the project Lighthouse survey');
    expect(new URL(inviteePage.url()).pathname).toBe(new URL(link!).pathname);
    await screenshot(inviteePage, 'invitations-02-link');
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
    expect(pageErrors).toEqual([]);
  });

  it('someone without an account opens the link, creates one, and comes back to the invitation', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const owner = await register('Nora');
    const project = await platform.call('POST', '/api/projects', { token: owner.token, body: { name: 'Tide tables' } });
    const projectId: string = project.body.id;
    const email = `newcomer-${RUN_ID}@example.org`;
    expect((await platform.call('POST', `/api/projects/${projectId}/members`, { token: owner.token, body: { email, permissions: [] } })).status).toBe(202);
    await poll(() => mails.filter((mail) => mail.to === email).length).toBe(1);
    const link = /https?:\/\/\S+\/console\/invitations\/[A-Za-z0-9_-]+/.exec(mails.find((mail) => mail.to === email)!.text)![0];

    const page = await browserOf();
    await page.goto(link);
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Display name').fill('Newcomer');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const invitation = page.getByRole('region', { name: 'Invitation' });
    await poll(() => invitation.textContent()).toContain('Nora invited you to the project Tide tables');
    expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);
    await invitation.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(new RegExp(`/console/projects/${projectId}$`));
    expect(pageErrors).toEqual([]);
  });
});
