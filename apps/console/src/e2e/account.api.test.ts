import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { PASSWORD, poll, register, screenshot, screenshotFailures, signInOnPage, startConsolePlatform, type ConsolePlatform } from './console-platform';

let platform: ConsolePlatform;

beforeAll(async () => {
  platform = await startConsolePlatform();
});

afterAll(async () => {
  await platform?.close();
});

screenshotFailures(() => platform, 'account');

const signIn = (email: string, password: string, userAgent?: string) => platform.call('POST', '/api/auth/login', { body: { email, password }, headers: userAgent ? { 'user-agent': userAgent } : {} });

/** Types `password` on the reset link's page and sends it. */
async function choosePassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Save and sign in' }).click();
}

/** What the reset link's form says went wrong. */
const resetRefusal = (page: Page) => page.getByRole('form', { name: 'Choose a new password' }).getByRole('alert').first().textContent();

describe('passwords in a real browser', { timeout: 90_000 }, () => {
  it('someone who forgot their password asks for a link on the sign-in page, opens it from the mail and is signed in with the new one', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const account = await register(platform, 'Fiona', 'forgot');
    const page = await platform.openPage();
    await page.goto('/console/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/console\/forgot-password$/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('If an account exists for this email');
    await screenshot(page, 'account-01-link-asked');

    const resetMails = () => mails.filter((mail) => mail.to === account.email && mail.subject === 'Choose a new password');
    await poll(() => resetMails().length).toBe(1);
    const link = /https?:\/\/\S+\/console\/reset-password#token=[A-Za-z0-9_-]+/.exec(resetMails()[0]!.text)?.[0];
    expect(link?.startsWith(`${platform.url}/console/reset-password#token=`)).toBe(true);

    const fresh = await platform.openPage();
    await fresh.goto(link!);
    await choosePassword(fresh, 'short');
    await poll(() => resetRefusal(fresh)).toBe('At least 8 characters');
    await screenshot(fresh, 'account-02-reset-refused');
    await choosePassword(fresh, 'a new horse battery');
    await fresh.waitForURL(/\/console\/projects$/);
    await poll(() => fresh.getByRole('banner').textContent()).toContain('Fiona');
    expect((await signIn(account.email, PASSWORD)).status).toBe(401);
    expect((await signIn(account.email, 'a new horse battery')).status).toBe(200);

    // The link worked once.
    const again = await platform.openPage();
    await again.goto(link!);
    await choosePassword(again, 'a third horse battery');
    await poll(() => resetRefusal(again)).toContain('ask for a new one');
    await screenshot(again, 'account-03-link-used');
    expect(platform.pageErrors).toEqual([]);
  });

  it('the reset page without a token says to open the link from the mail', async () => {
    const page = await platform.openPage();
    await page.goto('/console/reset-password');
    await poll(() => page.getByRole('alert').textContent()).toContain('opens from the link in the mail');
    expect(await page.getByRole('link', { name: 'Ask for a new one' }).getAttribute('href')).toBe('/console/forgot-password');
  });

  it('a signed-in user opens their account from the header and changes the password; their other device is signed out', async () => {
    const account = await register(platform, 'Chen', 'change');
    const otherDevice = (await signIn(account.email, PASSWORD)).body.token as string;
    const page = await platform.openPage({ token: account.token });
    await page.goto('/console/projects');
    await page.getByRole('banner').getByRole('link', { name: 'Chen' }).click();
    await page.waitForURL(/\/console\/account$/);
    await poll(() => page.getByRole('main').textContent()).toContain(account.email);
    // The id colleagues need to add this user by id is on the screen.
    expect(await page.locator('.user-id-line code').textContent()).toBe(account.id);

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('another horse battery');
    await page.getByRole('button', { name: 'Change password' }).click();
    await poll(() => page.getByRole('form', { name: 'Change password' }).getByRole('alert').first().textContent()).toBe('The current password is not right');
    await screenshot(page, 'account-04-wrong-current');

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('another horse battery');
    await page.getByRole('button', { name: 'Change password' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Password changed. Signed out on 1 other device.');
    await screenshot(page, 'account-05-changed');
    expect((await platform.call('GET', '/api/me', { token: otherDevice })).status).toBe(401);
    expect((await platform.call('GET', '/api/me', { token: account.token })).status).toBe(200);
    expect((await signIn(account.email, 'another horse battery')).status).toBe(200);
    expect(platform.pageErrors).toEqual([]);
  });

  it('a user sees where they are signed in, signs out a lost phone, then everywhere else', async () => {
    const account = await register(platform, 'Dara', 'devices');
    const firefox = (await signIn(account.email, PASSWORD, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).body.token as string;
    const phone = (await signIn(account.email, PASSWORD, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1')).body.token as string;
    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await page.getByRole('banner').getByRole('link', { name: 'Dara' }).click();

    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    const devices = async () => (await sessions.locator('strong').allTextContents()).join(', ');
    await poll(devices).toMatch(/^Chrome \d+ on Linux, Safari 17 on iOS, Firefox 133 on Windows, node$/);
    expect(await sessions.first().textContent()).toContain('This device');
    expect(await sessions.first().getByRole('button').count()).toBe(0);
    expect(await sessions.nth(1).locator('.signed-in').textContent()).toMatch(/^Signed in .+ from 127\.0\.0\.1$/);
    expect(await sessions.nth(1).locator('.last-used').textContent()).toBe('Last used never');
    expect(await sessions.first().locator('.last-used').textContent()).toBe('Last used in the last 5 minutes');
    await screenshot(page, 'account-06-sessions');

    await sessions.nth(1).getByRole('button', { name: /^Sign out Safari 17 on iOS/ }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Signed out Safari 17 on iOS.');
    await poll(devices).toMatch(/^Chrome \d+ on Linux, Firefox 133 on Windows, node$/);
    expect((await platform.call('GET', '/api/me', { token: phone })).status).toBe(401);
    expect((await platform.call('GET', '/api/me', { token: firefox })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Signed out on 2 other devices.');
    await poll(devices).toMatch(/^Chrome \d+ on Linux$/);
    expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).count()).toBe(0);
    await screenshot(page, 'account-07-signed-out-elsewhere');
    expect((await platform.call('GET', '/api/me', { token: firefox })).status).toBe(401);
    expect((await platform.call('GET', '/api/me', { token: account.token })).status).toBe(401);
    expect(platform.pageErrors).toEqual([]);
  });

  it('a user makes an access token for a script, sees it once, and revokes it', async () => {
    const account = await register(platform, 'Emeka', 'tokens');
    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await page.goto('/console/account');
    const form = page.getByRole('form', { name: 'New access token' });
    await poll(() => page.getByRole('main').textContent()).toContain('No access token.');

    await form.getByRole('button', { name: 'Make token' }).click();
    await poll(() => form.getByRole('alert').first().textContent()).toBe('Must not be empty');
    expect((await platform.call('GET', '/api/me/tokens', { token: account.token })).body.tokens).toEqual([]);

    await form.getByLabel('Token name').fill('nightly export');
    await form.getByLabel('Expires after').selectOption('30');
    await form.getByLabel('Access').selectOption('read');
    await form.getByRole('button', { name: 'Make token' }).click();
    const shown = page.getByRole('region', { name: 'New token' });
    await poll(() => shown.locator('code').textContent()).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    const secret = (await shown.locator('code').textContent())!;
    expect((await shown.textContent())).toContain('copy it now, it is not shown again');
    const rows = page.getByRole('table', { name: 'Access tokens' }).getByRole('row');
    await poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).getByRole('cell').first().textContent()).toBe('nightly export');
    expect(await rows.nth(1).getByRole('cell').nth(3).textContent()).toBe('never');
    expect(await rows.nth(1).getByRole('cell').nth(4).textContent()).toBe('read only');
    await screenshot(page, 'account-08-token-made');
    const asScript = await platform.call('GET', '/api/me', { token: secret });
    expect(asScript.status).toBe(200);
    expect(asScript.body.id).toBe(account.id);
    expect((await platform.call('PUT', '/api/me/profile', { token: secret, body: { displayName: 'Script' } })).body.code).toBe('GATEWAY_TOKEN_READ_ONLY');
    const listed = (await platform.call('GET', '/api/me/tokens', { token: account.token })).body.tokens;
    expect(listed).toHaveLength(1);
    expect(listed[0].expiresAt - listed[0].createdAt).toBe(30 * 24 * 60 * 60 * 1000);

    // Revoking asks once more: a program using the token stops at once.
    await page.getByRole('button', { name: 'Revoke nightly export' }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    expect((await platform.call('GET', '/api/me', { token: secret })).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke nightly export' }).click();
    await page.getByRole('button', { name: 'Confirm revoke' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Revoked the token nightly export: it no longer works.');
    await poll(() => page.getByRole('main').textContent()).toContain('No access token.');
    expect(await shown.count()).toBe(0);
    expect((await platform.call('GET', '/api/me', { token: secret })).status).toBe(401);
    await screenshot(page, 'account-09-token-revoked');
    expect(platform.pageErrors).toEqual([]);
  });

  it('a user makes an access token for one project: the list says which, and the token reaches that project only', async () => {
    const account = await register(platform, 'Farid', 'scoped-token');
    const project = async (name: string) => (await platform.call('POST', '/api/projects', { token: account.token, body: { name } })).body.id as string;
    const [alpha, beta] = [await project('Alpha'), await project('Beta')];
    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await page.goto('/console/account');
    const form = page.getByRole('form', { name: 'New access token' });
    await form.getByLabel('Token name').fill('deploy alpha');
    await form.getByRole('checkbox', { name: 'Alpha' }).check();
    await form.getByRole('button', { name: 'Make token' }).click();
    const secret = page.getByRole('region', { name: 'New token' }).locator('code');
    await poll(() => secret.textContent()).toMatch(/^pat_/);
    const row = page.getByRole('table', { name: 'Access tokens' }).getByRole('row').filter({ hasText: 'deploy alpha' });
    await poll(() => row.getByRole('cell').nth(5).textContent()).toBe('Alpha');
    await screenshot(page, 'account-08b-token-for-a-project');

    const token = (await secret.textContent())!;
    expect((await platform.call('GET', `/api/projects/${alpha}`, { token })).body.name).toBe('Alpha');
    expect((await platform.call('GET', `/api/projects/${beta}`, { token })).body.code).toBe('GATEWAY_TOKEN_PROJECT_SCOPED');
    expect((await platform.call('GET', '/api/me/tokens', { token: account.token })).body.tokens[0].projects).toEqual([alpha]);

    // The deployment now needs Beta too, and should only read: the same secret, changed.
    await page.getByRole('button', { name: 'Change deploy alpha' }).click();
    const change = page.getByRole('form', { name: 'Change deploy alpha' });
    expect(await change.getByRole('checkbox', { name: 'Alpha' }).isChecked()).toBe(true);
    expect(await change.getByRole('checkbox', { name: 'Beta' }).isChecked()).toBe(false);
    await change.getByLabel('Token name').fill('');
    await change.getByRole('button', { name: 'Save token' }).click();
    await poll(() => change.getByRole('alert').first().textContent()).toBe('Must not be empty');
    expect((await platform.call('GET', '/api/me/tokens', { token: account.token })).body.tokens[0].name).toBe('deploy alpha');
    await change.getByLabel('Token name').fill('deploy both');
    await change.getByLabel('Access').selectOption('read');
    await change.getByRole('checkbox', { name: 'Beta' }).check();
    await screenshot(page, 'account-08c-token-change');
    await change.getByRole('button', { name: 'Save token' }).click();
    await poll(() => page.getByRole('status').textContent()).toBe('Changed the token deploy both: it holds from its next request.');
    const changed = page.getByRole('table', { name: 'Access tokens' }).getByRole('row').filter({ hasText: 'deploy both' });
    await poll(() => changed.getByRole('cell').nth(5).textContent()).toBe('Alpha, Beta');
    expect(await changed.getByRole('cell').nth(4).textContent()).toBe('read only');
    expect(await change.count()).toBe(0);
    expect(await page.getByRole('region', { name: 'New token' }).textContent()).toContain('The token deploy both: copy it now');
    await screenshot(page, 'account-08d-token-changed');
    expect((await platform.call('GET', `/api/projects/${beta}`, { token })).body.name).toBe('Beta');
    expect((await platform.call('PATCH', `/api/projects/${beta}`, { token, body: { name: 'Gamma' } })).body.code).toBe('GATEWAY_TOKEN_READ_ONLY');
    expect(platform.pageErrors).toEqual([]);
  });

  it('a user deletes their account: first what stands in the way, then what goes with it, the password, and the sign-in page', async () => {
    const account = await register(platform, 'Zoe', 'leaving');
    const colleague = await register(platform, 'Yan', 'leaving');
    const tenant = (await platform.call('POST', '/api/tenants', { token: account.token, body: { name: 'Zoe crew' } })).body;
    const invited = await platform.call('PUT', `/api/tenants/${tenant.id}/members/${colleague.id}`, { token: account.token, body: { role: 'member' } });
    expect((await platform.call('POST', `/api/me/invitations/${invited.body.id}/accept`, { token: colleague.token })).status).toBe(200);
    expect((await platform.call('POST', '/api/projects', { token: account.token, body: { name: 'Zoe notes' } })).status).toBe(201);

    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await page.goto('/console/account');
    const section = page.getByRole('region', { name: 'Delete account' });
    await poll(() => section.getByRole('list', { name: 'Before you can delete your account' }).textContent()).toBe(
      'You are the only admin of the tenant Zoe crew, which has other members: make one of them admin first.',
    );
    expect(await section.getByRole('button', { name: 'Delete account' }).count()).toBe(0);
    await screenshot(page, 'account-10-delete-blocked');

    expect((await platform.call('PUT', `/api/tenants/${tenant.id}/members/${colleague.id}`, { token: account.token, body: { role: 'admin' } })).status).toBe(200);
    await page.reload();
    await poll(() => section.textContent()).toContain('Deleted with it: Zoe notes.');
    expect(await section.textContent()).toContain('You leave: Zoe crew.');
    await section.getByLabel('Your password').fill('not my password');
    await section.getByRole('button', { name: 'Delete account' }).click();
    await poll(() => section.getByRole('alert').first().textContent()).toBe('The password is not right');
    expect((await platform.call('GET', '/api/me', { token: account.token })).status).toBe(200);
    await screenshot(page, 'account-11-delete-account');

    await section.getByLabel('Your password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Delete account' }).click();
    await poll(() => new URL(page.url()).pathname).toBe('/console/sign-in');
    await poll(() => page.getByRole('status').textContent()).toBe('Your account is deleted.');
    expect((await signIn(account.email, PASSWORD)).status).toBe(401);
    expect((await platform.call('GET', `/api/tenants/${tenant.id}/members`, { token: colleague.token })).body.items.map((member: { userId: string }) => member.userId)).toEqual([colleague.id]);
    await screenshot(page, 'account-12-deleted');
  });

  it('a user changes their email: the link goes to the new address, opening it changes the email the console shows', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const account = await register(platform, 'Ivo', 'moving');
    const newEmail = account.email.replace('ivo-', 'ivo-new-');
    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await page.goto('/console/account');
    const form = page.getByRole('form', { name: 'Change email' });
    await form.getByLabel('New email').fill(newEmail);
    await form.getByLabel('Password').fill('not my password');
    await form.getByRole('button', { name: 'Send the link' }).click();
    await poll(() => form.getByRole('alert').first().textContent()).toBe('The password is not right');
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Send the link' }).click();
    await poll(() => form.getByRole('status').textContent()).toContain(`A link to confirm ${newEmail} is on its way there`);
    await screenshot(page, 'account-13-email-link-sent');
    expect((await platform.call('GET', '/api/me', { token: account.token })).body.email).toBe(account.email);

    const confirmMails = () => mails.filter((mail) => mail.to === newEmail && mail.subject === 'Confirm your new email address');
    await poll(() => confirmMails().length).toBe(1);
    const link = /https?:\/\/\S+\/console\/confirm-email#token=[A-Za-z0-9_-]+/.exec(confirmMails()[0]!.text)?.[0];
    expect(link?.startsWith(`${platform.url}/console/confirm-email#token=`)).toBe(true);
    await page.goto(link!);
    await poll(() => page.getByRole('status').textContent()).toBe(`Your email is now ${newEmail}. Sign in with it from now on.`);
    await screenshot(page, 'account-14-email-confirmed');
    await page.getByRole('link', { name: 'Open your projects' }).click();
    await page.goto('/console/account');
    await poll(() => page.getByRole('main').textContent()).toContain(newEmail);
    expect((await signIn(newEmail, PASSWORD)).status).toBe(200);

    // The link works once.
    const again = await platform.openPage();
    await again.goto(link!);
    await poll(() => again.getByRole('alert').first().textContent()).toContain('ask for a new one');
    expect(platform.pageErrors).toEqual([]);
  });

  it('a user turns on two-step sign-in with an authenticator app; signing in then asks for its code; a recovery code works once', async () => {
    const account = await register(platform, 'Kemal', 'two-step');
    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await page.goto('/console/account');
    const section = page.getByRole('region', { name: 'Two-step sign-in' });
    const turnOn = section.getByRole('form', { name: 'Turn on two-step sign-in' });
    await turnOn.getByLabel('Password').fill('not my password');
    await turnOn.getByRole('button', { name: 'Turn on' }).click();
    await poll(() => turnOn.getByRole('alert').first().textContent()).toBe('The password is not right');
    await turnOn.getByLabel('Password').fill(PASSWORD);
    await turnOn.getByRole('button', { name: 'Turn on' }).click();

    const key = section.getByLabel('Key for your authenticator app');
    await poll(() => key.textContent()).toMatch(/^[A-Z2-7]{32}$/);
    const secret = (await key.textContent())!;
    expect(await section.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible()).toBe(true);
    await screenshot(page, 'account-15-two-step-scan');
    const confirmForm = section.getByRole('form', { name: 'Confirm two-step sign-in' });
    await confirmForm.getByLabel('Code').fill('000000');
    await confirmForm.getByRole('button', { name: 'Confirm' }).click();
    await poll(() => confirmForm.getByRole('alert').first().textContent()).toBe('This code is not right: enter the one your authenticator app shows now');
    await confirmForm.getByLabel('Code').fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
    await confirmForm.getByRole('button', { name: 'Confirm' }).click();
    const codes = section.getByRole('region', { name: 'Recovery codes' }).locator('li');
    await poll(() => codes.count()).toBe(10);
    const recoveryCode = (await codes.first().textContent())!;
    await screenshot(page, 'account-16-recovery-codes');
    await section.getByRole('button', { name: 'I have kept them' }).click();
    await poll(() => section.textContent()).toContain('Two-step sign-in is on');
    expect((await platform.call('GET', '/api/me', { token: account.token })).body.twoFactorEnabled).toBe(true);

    // Signing in on another device: the password, then the code field the server asks for.
    const other = await platform.openPage();
    await other.goto('/console/sign-in');
    await other.getByLabel('Email').fill(account.email);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => other.getByLabel('Code').count()).toBe(1);
    expect(await other.getByRole('alert').first().textContent()).toBe('Enter the code from your authenticator app (or a recovery code)');
    await screenshot(other, 'account-17-sign-in-code');
    await other.getByLabel('Code').fill(recoveryCode);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL(/\/console\/projects$/);
    expect((await signIn(account.email, PASSWORD)).body.code).toBe('IDENTITY_TWO_FACTOR_REQUIRED');
    expect((await platform.call('POST', '/api/auth/login', { body: { email: account.email, password: PASSWORD, code: recoveryCode } })).status).toBe(401);

    const turnOff = section.getByRole('form', { name: 'Turn off two-step sign-in' });
    await turnOff.getByLabel('Password').fill(PASSWORD);
    await turnOff.getByRole('button', { name: 'Turn off' }).click();
    await poll(() => section.getByRole('status').textContent()).toBe('Two-step sign-in is off: your password alone signs you in.');
    expect((await signIn(account.email, PASSWORD)).status).toBe(200);
    expect(platform.pageErrors).toEqual([]);
  });

  it('a new user confirms their email from the welcome mail; the account screen says so until then and sends the link again', async () => {
    const mails = platform.mails;
    if (!mails) throw new Error('this test reads the mails of the in-process platform: run it without CONSOLE_E2E_URL');
    const account = await register(platform, 'Lena', 'confirming');
    const page = await platform.openPage();
    await signInOnPage(page, account.email);
    await page.goto('/console/account');
    const notice = page.getByRole('region', { name: 'Email not confirmed' });
    await poll(() => notice.textContent()).toContain(`${account.email} is not confirmed yet`);
    await notice.getByRole('button', { name: 'Send the link again' }).click();
    await poll(() => notice.getByRole('status').textContent()).toBe(`A link to confirm ${account.email} is on its way there.`);
    await screenshot(page, 'account-18-email-unconfirmed');

    const links = () => mails.filter((mail) => mail.to === account.email).map((mail) => /https?:\/\/\S+\/console\/verify-email#token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0]).filter((link): link is string => link !== undefined);
    await poll(() => links().length).toBe(2);
    // The welcome mail's link was retired by the newer one.
    await page.goto(links()[0]!);
    await poll(() => page.getByRole('alert').first().textContent()).toContain('ask for a new one');
    // Opened where the mail is read: another browser, not signed in.
    const mailReader = await platform.openPage();
    await mailReader.goto(links()[1]!);
    await poll(() => mailReader.getByRole('status').textContent()).toBe(`Thank you: ${account.email} is confirmed.`);
    await screenshot(mailReader, 'account-19-email-confirmed');
    await page.goto('/console/account');
    await poll(() => page.getByRole('heading', { name: 'Your account' }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Email not confirmed' }).count()).toBe(0);
    expect((await platform.call('GET', '/api/me', { token: account.token })).body.emailVerified).toBe(true);
    expect(platform.pageErrors).toEqual([]);
  });
});
