import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { identityService } from '@platform/identity';
import { loadPlatformConfig, startPlatform } from '@platform/platform';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';

/** The console as `pnpm install` builds it. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist', import.meta.url));
/** Where the end-to-end tests leave screenshots to look at. */
export const SCREENS_DIR = fileURLToPath(new URL('../../../../.cache/console-screens', import.meta.url));
/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Makes emails unique per run, so the tests can run again against the same platform. */
export const RUN_ID = Date.now().toString(36);

/** The password of every account the tests register. */
export const PASSWORD = 'correct horse battery';

/** Loads and syncs in the browser share the machine with the other tests: give them time. */
export const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** One API call, as `TestGateway.call` makes it: `token` as `Authorization: Bearer`, JSON in and out. */
export type ApiCall = (method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<{ status: number; body: any }>;

export interface OpenPageOptions {
  /** The session token to sign the context in with (as the `session` cookie); none leaves it signed out. */
  token?: string;
  /** Another gateway to open pages of (default the platform's). */
  url?: string;
  viewport?: { width: number; height: number };
  locale?: string;
}

export interface ConsolePlatform {
  /** The gateway serving the console and the API. */
  url: string;
  call: ApiCall;
  browser: Browser;
  /** A browser context of its own with one page; its uncaught errors and Content-Security-Policy refusals go to `pageErrors`. */
  openPage(options?: OpenPageOptions): Promise<Page>;
  /** Every page `openPage` opened (and any a test adds), for the screenshots of a failed test. */
  pages: Page[];
  /** Uncaught errors and Content-Security-Policy refusals in the pages `openPage` opened: none is expected. */
  pageErrors: string[];
  /** The in-process gateway only: makes the user a platform owner as `promote-owner` does (its record) and answers a session token of it. */
  promoteOwner?: (userId: string) => Promise<string>;
  /** The in-process gateway only: every mail the services sent, oldest first. */
  mails?: SentMail[];
  close(): Promise<void>;
}

type SentMail = Parameters<NonNullable<Parameters<typeof startTestGateway>[0]['mailer']>['send']>[0];

/** What every platform shape shares: the browser and the pages opened in it (closing the browser closes them). */
type BrowserPages = Pick<ConsolePlatform, 'browser' | 'openPage' | 'pages' | 'pageErrors'>;

function browserPages(browser: Browser, platformUrl: string): BrowserPages {
  const pages: Page[] = [];
  const pageErrors: string[] = [];
  return {
    browser,
    pages,
    pageErrors,
    async openPage({ token, url = platformUrl, viewport = { width: 1400, height: 900 }, locale } = {}) {
      const context = await browser.newContext({ baseURL: url, viewport, locale });
      if (token) await context.addCookies([{ name: 'session', value: token, url }]);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => message.type() === 'error' && message.text().includes('Content Security Policy') && pageErrors.push(message.text()));
      pages.push(page);
      return page;
    },
  };
}

function callAt(url: string): ApiCall {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
}

/**
 * The gateway serving the built console, and a browser. By default identity and data in-process
 * behind a test gateway; `CONSOLE_E2E_URL` points the same tests at a running platform instead
 * (e.g. `pnpm start:services`), whose console and accounts they then use.
 */
export async function startConsolePlatform(options: { allInOne?: { env?: Record<string, string> } } = {}): Promise<ConsolePlatform> {
  await mkdir(SCREENS_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const external = process.env.CONSOLE_E2E_URL;
  if (external) return { url: external, call: callAt(external), ...browserPages(browser, external), close: () => browser.close() };
  if (!existsSync(`${CONSOLE_DIST}/index.html`)) throw new Error(`${CONSOLE_DIST} has no build: run pnpm --filter @platform/console build`);
  if (options.allInOne) return startAllInOne(browser, options.allInOne.env ?? {});
  const mails: SentMail[] = [];
  const mailer = { kind: 'log' as const, send: async (mail: SentMail) => void mails.push(mail) };
  const gateway: TestGateway = await startTestGateway({ services: [identityService, dataService], realtime: true, consoleRoot: CONSOLE_DIST, mailer });
  return {
    url: gateway.url,
    call: gateway.call.bind(gateway),
    ...browserPages(browser, gateway.url),
    mails,
    async promoteOwner(userId) {
      // identity's users collection: the flag /api/me answers (the session carries it for the admin routes).
      await gateway.context.store.collection('users').updateOne({ id: userId }, { $set: { platformOwner: true } });
      return gateway.signIn(userId, { platformOwner: true });
    },
    async close() {
      await browser.close();
      await gateway.close();
    },
  };
}

/**
 * The whole platform as `pnpm start` runs it (every service, embedded storage in a fresh
 * directory), for the screens that need audit, actions, publishing or visitors.
 */
async function startAllInOne(browser: Browser, env: Record<string, string>): Promise<ConsolePlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'console-e2e-'));
  // Services read their own settings (ACTIONS_*, VISITORS_*, ...) from process.env when they start,
  // not from the platform's config: the test file's process (each file has its own) gets them too.
  Object.assign(process.env, env);
  const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', CONSOLE_DIR: CONSOLE_DIST, ...env }));
  return {
    url: platform.url,
    call: callAt(platform.url),
    ...browserPages(browser, platform.url),
    async close() {
      await browser.close();
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Holds every GET of `url` (a Playwright glob) a second before it goes on: a slow server, for a
 * screen that must not say "Saved." before it has read the change back. Undone by `page.unroute(url)`.
 */
export async function slowReads(page: Page, url: string): Promise<void> {
  await page.route(url, async (route) => {
    if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.fallback();
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true });
}

/** Screenshots every page the platform opened when a test of the file fails, as `<name>-failed-<n>`, to look at beside the error. */
export function screenshotFailures(platform: () => ConsolePlatform | undefined, name: string): void {
  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    for (const [index, page] of (platform()?.pages ?? []).entries()) await screenshot(page, `${name}-failed-${index}`).catch(() => undefined);
  });
}

export interface Account {
  id: string;
  token: string;
  email: string;
  name: string;
}

/** Registers `name` with an email unique to the run and to `tag` (one a test file), and answers its session. */
export async function register(platform: ConsolePlatform, name: string, tag: string): Promise<Account> {
  const email = `${name.toLowerCase()}-${tag}-${RUN_ID}@example.org`;
  const answer = await platform.call('POST', '/api/auth/register', { body: { email, password: PASSWORD, displayName: name } });
  expect(answer.status).toBe(201);
  return { id: answer.body.user.id, token: answer.body.token, email, name };
}

/** Signs `email` in on the console's sign-in page, as a person types it, and waits for the projects. */
export async function signInOnPage(page: Page, email: string): Promise<void> {
  await page.goto('/console/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/projects$/);
}
