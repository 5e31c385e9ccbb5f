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
});
