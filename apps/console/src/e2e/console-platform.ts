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

/** The console as `pnpm install` builds it. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist', import.meta.url));
/** Where the end-to-end tests leave screenshots to look at. */
export const SCREENS_DIR = fileURLToPath(new URL('../../../../.cache/console-screens', import.meta.url));
/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Makes emails unique per run, so the tests can run again against the same platform. */
export const RUN_ID = Date.now().toString(36);

/** One API call, as `TestGateway.call` makes it: `token` as `Authorization: Bearer`, JSON in and out. */
export type ApiCall = (method: string, path: string, options?: { token?: string; body?: unknown }) => Promise<{ status: number; body: any }>;

export interface ConsolePlatform {
  /** The gateway serving the console and the API. */
  url: string;
  call: ApiCall;
  browser: Browser;
  /** The in-process gateway only: makes the user a platform owner as `promote-owner` does (its record) and answers a session token of it. */
  promoteOwner?: (userId: string) => Promise<string>;
  /** The in-process gateway only: every mail the services sent, oldest first. */
  mails?: SentMail[];
  close(): Promise<void>;
}

type SentMail = Parameters<NonNullable<Parameters<typeof startTestGateway>[0]['mailer']>['send']>[0];

function callAt(url: string): ApiCall {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
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
  if (external) return { url: external, call: callAt(external), browser, close: () => browser.close() };
  if (!existsSync(`${CONSOLE_DIST}/index.html`)) throw new Error(`${CONSOLE_DIST} has no build: run pnpm --filter @platform/console build`);
  if (options.allInOne) return startAllInOne(browser, options.allInOne.env ?? {});
  const mails: SentMail[] = [];
  const mailer = { kind: 'log' as const, send: async (mail: SentMail) => void mails.push(mail) };
  const gateway: TestGateway = await startTestGateway({ services: [identityService, dataService], realtime: true, consoleRoot: CONSOLE_DIST, mailer });
  return {
    url: gateway.url,
    call: gateway.call.bind(gateway),
    browser,
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
    browser,
    async close() {
      await browser.close();
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true });
}
