import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const PASSWORD = 'correct horse battery';
let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform();
});
afterAll(async () => {
  await platform?.close();
});

/** The subjects of the mails written to the log for `to`, oldest first. */
const subjects = (to: string): string[] => platform.mailsTo(to).map((mail) => mail.subject);

describe('account notices by mail', () => {
  it("tell the owner of every change to how the account signs in, and of its deletion, and not of a refused one", async () => {
    const { token } = await platform.register('noticed@example.org');
    const welcome = subjects('noticed@example.org').length;
    const call = (method: string, path: string, body: unknown) => platform.call(method, path, { token, body });

    expect((await call('PUT', '/api/me/password', { currentPassword: 'wrong password', newPassword: 'a newer password' })).status).toBe(403);
    expect((await call('PUT', '/api/me/password', { currentPassword: PASSWORD, newPassword: 'a newer password' })).status).toBe(200);
    expect((await call('POST', '/api/me/tokens', { name: 'backup script' })).status).toBe(201);
    const started = await call('POST', '/api/me/two-factor', { password: 'a newer password' });
    expect((await call('POST', '/api/me/two-factor/confirm', { code: TOTP.generate({ secret: Secret.fromBase32(started.body.secret) }) })).status).toBe(200);
    expect((await call('POST', '/api/me/two-factor/recovery-codes', { password: 'a newer password' })).status).toBe(200);
    expect((await call('DELETE', '/api/me/two-factor', { password: 'a newer password' })).status).toBe(204);
    expect((await call('DELETE', '/api/me', { password: 'a newer password' })).status).toBe(200);

    await expect
      .poll(() => subjects('noticed@example.org').slice(welcome))
      .toEqual(['Your password was changed', 'A new access token for your account', 'Two-step sign-in is on', 'New recovery codes', 'Two-step sign-in is off', 'Your account was deleted']);
    expect(platform.mailsTo('noticed@example.org', 'A new access token for your account')[0]?.text).toContain('"backup script"');
  });

  it('tell the owner of a sign-in from a device none of its sessions was opened from, not of one from a known device or a refused one', async () => {
    const firefox = (version: number, system = 'Windows NT 10.0; Win64; x64') => `Mozilla/5.0 (${system}; rv:${version}.0) Gecko/20100101 Firefox/${version}.0`;
    const signIn = (userAgent: string, password = PASSWORD) => platform.call('POST', '/api/auth/login', { body: { email: 'signing-in@example.org', password }, headers: { 'user-agent': userAgent } });
    const newSignIns = () => platform.mailsTo('signing-in@example.org', 'A new sign-in to your account').map((mail) => mail.text);
    expect((await platform.call('POST', '/api/auth/register', { body: { email: 'signing-in@example.org', password: PASSWORD, displayName: 'Signe' }, headers: { 'user-agent': firefox(133) } })).status).toBe(201);

    // The browser it registered with, updated since: no news.
    expect((await signIn(firefox(134))).status).toBe(200);
    expect((await signIn('curl/8.5.0', 'not the password')).status).toBe(401);
    expect((await signIn('curl/8.5.0')).status).toBe(200);
    expect((await signIn('curl/8.6.0')).status).toBe(200);
    expect((await signIn(firefox(134, 'X11; Linux x86_64'))).status).toBe(200);
    await expect.poll(() => newSignIns().length).toBe(2);
    expect(newSignIns()[0]).toContain('signed in to your account from curl 8.5.0 (address 127.0.0.1)');
    expect(newSignIns()[1]).toContain('from Firefox 134 on Linux');
    expect(newSignIns()[1]).toContain('If it was not, choose a new password');
  });
});
