import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { identityService } from '@platform/identity';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The console as `pnpm install` builds it. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist', import.meta.url));
/** Where the end-to-end tests leave screenshots to look at. */
export const SCREENS_DIR = fileURLToPath(new URL('../../../../.cache/console-screens', import.meta.url));
/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ConsolePlatform {
  gateway: TestGateway;
  browser: Browser;
  close(): Promise<void>;
}

/** The all-in-one's identity and data services behind the gateway serving the built console, and a browser. */
export async function startConsolePlatform(): Promise<ConsolePlatform> {
  if (!existsSync(`${CONSOLE_DIST}/index.html`)) throw new Error(`${CONSOLE_DIST} has no build: run pnpm --filter @platform/console build`);
  await mkdir(SCREENS_DIR, { recursive: true });
  const gateway = await startTestGateway({ services: [identityService, dataService], realtime: true, consoleRoot: CONSOLE_DIST });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  return {
    gateway,
    browser,
    async close() {
      await browser.close();
      await gateway.close();
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true });
}
