import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { poll, register, screenshot, screenshotFailures, signInOnPage, startConsolePlatform, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;

beforeAll(async () => {
  // Identity reads its settings from the environment when it starts.
  vi.stubEnv('IDENTITY_REQUIRE_CONFIRMED_EMAIL', 'true');
  platform = await startConsolePlatform();
});

afterAll(async () => {
  await platform?.close();
  vi.unstubAllEnvs();
});

screenshotFailures(() => platform, 'email-confirmation');

describe('a platform that requires confirmed emails, in a real browser', { timeout: 90_000 }, () => {
  it('shows a new account only its account until the mailed link is opened, then its projects', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const account = await register(platform, 'Greta', 'unconfirmed');
    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Confirm your email first');
    expect(await page.getByRole('main').textContent()).toContain(account.email);
    await page.getByRole('button', { name: 'I have confirmed it' }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('Not confirmed yet');
    await screenshot(page, 'email-confirmation-01-required');

    // The account stays open, for a mistyped address; every other screen waits.
    await page.getByRole('link', { name: 'Change it on your account' }).click();
    await page.waitForURL(/\/console\/account$/);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Your account');
    await page.goto('/console/tenants');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Confirm your email first');

    const link = mails.map((mail) => (mail.to === account.email ? /https?:\/\/\S+\/console\/verify-email#token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0] : undefined)).find(Boolean);
    expect(link?.startsWith(`${platform.url}/console/verify-email#token=`)).toBe(true);
    await page.goto(link!);
    await poll(() => page.getByRole('status').textContent()).toBe(`Thank you: ${account.email} is confirmed.`);
    await page.getByRole('link', { name: 'Open your projects' }).click();
    await page.waitForURL(/\/console\/projects$/);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Projects');
    await screenshot(page, 'email-confirmation-02-confirmed');
  });
});
