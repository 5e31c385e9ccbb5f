import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkToken, startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const signIn = (email: string, password: string, on = platform) => on.call('POST', '/api/auth/login', { body: { email, password } });
const me = (token: string) => platform.call('GET', '/api/me', { token });
const changePassword = (token: string, body: unknown) => platform.call('PUT', '/api/me/password', { token, body });
const requestReset = (email: string, on = platform) => on.call('POST', '/api/auth/password-reset', { body: { email } });
const confirmReset = (token: string, password: string) => platform.call('POST', '/api/auth/password-reset/confirm', { body: { token, password } });

/** The reset mails written to the log for `email`, oldest first. */
const resetMails = (email: string, on = platform) => on.mailsTo(email, 'Choose a new password');

/** The token of the newest reset link mailed to `email`, once the mail is out (it leaves after the answer). */
async function mailedToken(email: string, count: number): Promise<string> {
  await expect.poll(() => resetMails(email).length).toBe(count);
  const mail = resetMails(email).at(-1)!;
  expect(mail.text).toContain(`${platform.url}/console/reset-password#token=`);
  return linkToken(mail);
}

describe('changing the password (PUT /api/me/password)', () => {
  it('checks the current password, keeps this session and ends the others', async () => {
    const { token } = await platform.register('change@example.org', { password: 'first password' });
    const elsewhere = [(await signIn('change@example.org', 'first password')).body.token, (await signIn('change@example.org', 'first password')).body.token];
    const changed = await changePassword(token, { currentPassword: 'first password', newPassword: 'second password' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ endedSessions: 2 });
    expect((await me(token)).status).toBe(200);
    for (const other of elsewhere) expect((await me(other)).status).toBe(401);
    expect((await signIn('change@example.org', 'first password')).status).toBe(401);
    expect((await signIn('change@example.org', 'second password')).status).toBe(200);
  });

  it('refuses a wrong current password, a weak new one, a misspelt key and no session, changing nothing', async () => {
    const { token } = await platform.register('keep@example.org', { password: 'kept password' });
    const other = (await signIn('keep@example.org', 'kept password')).body.token;
    const wrong = await changePassword(token, { currentPassword: 'not it at all', newPassword: 'new password' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: 'The current password is not right', code: 'IDENTITY_WRONG_PASSWORD', details: { field: 'currentPassword' } });
    const weak = await changePassword(token, { currentPassword: 'kept password', newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.details.issues).toEqual([{ field: 'body.newPassword', message: 'at least 8 characters' }]);
    const misspelt = await changePassword(token, { currentPassword: 'kept password', password: 'new password' });
    expect(misspelt.status).toBe(400);
    expect((await platform.call('PUT', '/api/me/password', { body: { currentPassword: 'kept password', newPassword: 'new password' } })).status).toBe(401);
    expect((await me(other)).status).toBe(200);
    expect((await signIn('keep@example.org', 'kept password')).status).toBe(200);
  });

  it('counts wrong current passwords as failed sign-ins, so an open session cannot be used to guess it', async () => {
    const { token } = await platform.register('guess@example.org', { password: 'guarded password' });
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await changePassword(token, { currentPassword: `guess ${attempt}`, newPassword: 'taken over' })).status).toBe(403);
    const throttled = await changePassword(token, { currentPassword: 'guarded password', newPassword: 'taken over' });
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe('IDENTITY_TOO_MANY_ATTEMPTS');
    expect(throttled.headers.get('retry-after')).toBe('900');
    // The account's failures are sign-in failures: signing in is throttled too, right password or not.
    expect((await signIn('guess@example.org', 'guarded password')).status).toBe(429);
  });
});

describe('a forgotten password (POST /api/auth/password-reset, then .../confirm)', () => {
  it('mails a link whose token chooses a new password once, ends every session and signs in', async () => {
    const { token: oldSession } = await platform.register('forgot@example.org', { password: 'forgotten one' });
    const accessToken = (await platform.call('POST', '/api/me/tokens', { token: oldSession, body: { name: 'script' } })).body.token as string;
    expect((await me(accessToken)).status).toBe(200);
    const asked = await requestReset('Forgot@Example.org ');
    expect(asked.status).toBe(202);
    expect(asked.body.message).toMatch(/If an account exists for this email/);
    const token = await mailedToken('forgot@example.org', 1);

    const weak = await confirmReset(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.details.issues).toEqual([{ field: 'body.password', message: 'at least 8 characters' }]);

    const chosen = await confirmReset(token, 'remembered one');
    expect(chosen.status).toBe(200);
    expect(chosen.body.user).toMatchObject({ email: 'forgot@example.org' });
    expect(chosen.headers.getSetCookie().some((line) => line.startsWith(`session=${chosen.body.token}`))).toBe(true);
    expect((await me(chosen.body.token)).status).toBe(200);
    expect((await me(oldSession)).status).toBe(401);
    // Whoever knew the old password may have made access tokens: they end too.
    expect((await me(accessToken)).status).toBe(401);
    expect((await signIn('forgot@example.org', 'forgotten one')).status).toBe(401);
    expect((await signIn('forgot@example.org', 'remembered one')).status).toBe(200);

    const again = await confirmReset(token, 'third password');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'IDENTITY_RESET_LINK_INVALID', details: { field: 'token' } });
    expect((await signIn('forgot@example.org', 'remembered one')).status).toBe(200);
  });

  it('answers an unknown email as a known one and mails nothing; only the newest link works; a made-up token is refused', async () => {
    const unknown = await requestReset('nobody@example.org');
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual((await requestReset('forgot@example.org')).body);
    await mailedToken('forgot@example.org', 2);
    expect(resetMails('nobody@example.org')).toEqual([]);

    await platform.register('twice@example.org', { password: 'twice password' });
    await requestReset('twice@example.org');
    const first = await mailedToken('twice@example.org', 1);
    await requestReset('twice@example.org');
    const second = await mailedToken('twice@example.org', 2);
    expect((await confirmReset(first, 'from the old link')).body.code).toBe('IDENTITY_RESET_LINK_INVALID');
    expect((await confirmReset('A'.repeat(43), 'made up token')).status).toBe(400);
    expect((await confirmReset(second, 'from the new link')).status).toBe(200);
    expect((await signIn('twice@example.org', 'from the old link')).status).toBe(401);
  });

  it('mails one account at most 3 times an hour and answers one address at most 10 requests an hour', async () => {
    const own = await startIdentityPlatform();
    try {
      await own.register('inbox@example.org');
      for (let request = 0; request < 10; request += 1) expect((await requestReset('inbox@example.org', own)).status).toBe(202);
      const refused = await requestReset('inbox@example.org', own);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('IDENTITY_TOO_MANY_PASSWORD_RESETS');
      expect(refused.headers.get('retry-after')).toBe('3600');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(resetMails('inbox@example.org', own)).toHaveLength(3);
    } finally {
      await own.close();
    }
  });

  it('is not offered where mail goes to the log in production: the link would let log readers take accounts', async () => {
    const production = await startIdentityPlatform({ dev: false });
    try {
      await production.register('prod@example.org');
      const answer = await requestReset('prod@example.org', production);
      expect(answer.status).toBe(501);
      expect(answer.body).toEqual({ error: expect.stringContaining('SMTP_URL'), code: 'IDENTITY_PASSWORD_RESET_UNAVAILABLE' });
      expect(resetMails('prod@example.org', production)).toEqual([]);
    } finally {
      await production.close();
    }
  });
});
