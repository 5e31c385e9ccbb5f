import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkToken, startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const PASSWORD = 'correct horse battery';
let now = Date.UTC(2026, 6, 1, 12, 0, 0);
let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform({ clock: () => now });
});
afterAll(async () => {
  await platform?.close();
});

/** What an authenticator app holding `secret` shows at the platform's time. */
const codeAt = (secret: string, at = now) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
const signIn = (email: string, extra: Record<string, unknown> = {}) => platform.call('POST', '/api/auth/login', { body: { email, password: PASSWORD, ...extra } });

/** Registers `email` and turns two-step sign-in on; answers the session, the secret and the recovery codes. */
async function withTwoFactor(email: string): Promise<{ token: string; secret: string; recoveryCodes: string[] }> {
  const { token } = await platform.register(email);
  const started = await platform.call('POST', '/api/me/two-factor', { token, body: { password: PASSWORD } });
  expect(started.status).toBe(200);
  const confirmed = await platform.call('POST', '/api/me/two-factor/confirm', { token, body: { code: codeAt(started.body.secret) } });
  expect(confirmed.status).toBe(200);
  now += 30_000;
  return { token, secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

describe('two-step sign-in', () => {
  it('is turned on with the password and a first code; the QR code and URI name the account; nothing leaks the secret', async () => {
    const { token } = await platform.register('enrolling@example.org');
    expect((await platform.call('GET', '/api/me', { token })).body.twoFactorEnabled).toBe(false);
    expect((await platform.call('POST', '/api/me/two-factor', { token, body: { password: 'not the password' } })).body).toMatchObject({ code: 'IDENTITY_WRONG_PASSWORD' });
    expect((await platform.call('POST', '/api/me/two-factor/confirm', { token, body: { code: '123456' } })).body).toMatchObject({ code: 'IDENTITY_TWO_FACTOR_NOT_STARTED' });

    const started = await platform.call('POST', '/api/me/two-factor', { token, body: { password: PASSWORD } });
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauthUri).toContain(`otpauth://totp/${new URL(platform.url).hostname}:enrolling%40example.org?`);
    expect(started.body.otpauthUri).toContain(`secret=${started.body.secret}`);
    expect(started.body.qrCodeSvg).toMatch(/^<svg /);
    // Until a code confirms it, signing in is as before.
    expect((await signIn('enrolling@example.org')).status).toBe(200);

    const wrong = await platform.call('POST', '/api/me/two-factor/confirm', { token, body: { code: codeAt(started.body.secret, now - 5 * 60_000) } });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'IDENTITY_TWO_FACTOR_CONFIRMATION_FAILED' } });
    const confirmed = await platform.call('POST', '/api/me/two-factor/confirm', { token, body: { code: codeAt(started.body.secret) } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    const me = await platform.call('GET', '/api/me', { token });
    expect(me.body.twoFactorEnabled).toBe(true);
    expect(JSON.stringify(me.body)).not.toContain(started.body.secret);
    expect((await platform.call('POST', '/api/me/two-factor', { token, body: { password: PASSWORD } })).body).toMatchObject({ code: 'IDENTITY_TWO_FACTOR_ON' });
  });

  it('asks for a code at sign-in, takes each code once, and takes each recovery code once', async () => {
    const { secret, recoveryCodes } = await withTwoFactor('two-step@example.org');
    expect((await signIn('two-step@example.org')).body).toMatchObject({ code: 'IDENTITY_TWO_FACTOR_REQUIRED', details: { field: 'code' } });
    expect((await signIn('two-step@example.org', { code: '000000' })).body).toMatchObject({ code: 'IDENTITY_TWO_FACTOR_CODE_INVALID' });
    const code = codeAt(secret);
    const first = await signIn('two-step@example.org', { code });
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body)).not.toContain(secret);
    // The same code again (a replay within its half minute) is refused.
    expect((await signIn('two-step@example.org', { code })).status).toBe(401);
    // The app's next code, a step on, works; the previous step's is stale then.
    now += 30_000;
    expect((await signIn('two-step@example.org', { code: codeAt(secret, now - 30_000) })).status).toBe(401);
    expect((await signIn('two-step@example.org', { code: codeAt(secret) })).status).toBe(200);

    const recovery = recoveryCodes[0]!;
    expect((await signIn('two-step@example.org', { code: recovery.toUpperCase() })).status).toBe(200);
    expect((await signIn('two-step@example.org', { code: recovery })).status).toBe(401);
  });

  it('counts wrong codes as failed sign-ins: past the limit even the right code waits', async () => {
    const { secret } = await withTwoFactor('guessed@example.org');
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await signIn('guessed@example.org', { code: `11111${attempt}` })).status).toBe(401);
    expect((await signIn('guessed@example.org', { code: '222222' })).status).toBe(401);
    expect((await signIn('guessed@example.org', { code: codeAt(secret) })).status).toBe(429);
  });

  it('a password reset link alone does not sign in: it needs the code too, and keeps working until it gets one', async () => {
    const { secret } = await withTwoFactor('resetting@example.org');
    await platform.call('POST', '/api/auth/password-reset', { body: { email: 'resetting@example.org' } });
    const resetMails = () => platform.mailsTo('resetting@example.org', 'Choose a new password');
    await expect.poll(() => resetMails().length).toBe(1);
    const token = linkToken(resetMails()[0]!);
    const reset = (extra: Record<string, unknown> = {}) => platform.call('POST', '/api/auth/password-reset/confirm', { body: { token, password: 'a brand new password', ...extra } });
    expect((await reset()).body).toMatchObject({ code: 'IDENTITY_TWO_FACTOR_REQUIRED' });
    expect((await reset({ code: '999999' })).body).toMatchObject({ code: 'IDENTITY_TWO_FACTOR_CODE_INVALID' });
    expect((await reset({ code: codeAt(secret) })).status).toBe(200);
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'resetting@example.org', password: 'a brand new password' } })).body.code).toBe('IDENTITY_TWO_FACTOR_REQUIRED');
  });

  it('new recovery codes replace the old; turning it off needs the password; access tokens change nothing', async () => {
    const { token, recoveryCodes } = await withTwoFactor('switching@example.org');
    const pat = (await platform.call('POST', '/api/me/tokens', { token, body: { name: 'script' } })).body.token;
    expect((await platform.call('DELETE', '/api/me/two-factor', { token: pat, body: { password: PASSWORD } })).body).toMatchObject({ code: 'IDENTITY_TOKEN_NEEDS_SIGN_IN' });
    const renewed = await platform.call('POST', '/api/me/two-factor/recovery-codes', { token, body: { password: PASSWORD } });
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    expect((await signIn('switching@example.org', { code: recoveryCodes[1] })).status).toBe(401);
    expect((await signIn('switching@example.org', { code: renewed.body.recoveryCodes[0] })).status).toBe(200);

    expect((await platform.call('DELETE', '/api/me/two-factor', { token, body: { password: 'wrong password' } })).status).toBe(403);
    expect((await platform.call('DELETE', '/api/me/two-factor', { token, body: { password: PASSWORD } })).status).toBe(204);
    expect((await platform.call('DELETE', '/api/me/two-factor', { token, body: { password: PASSWORD } })).body).toMatchObject({ code: 'IDENTITY_TWO_FACTOR_OFF' });
    expect((await signIn('switching@example.org')).status).toBe(200);
    expect((await platform.call('GET', '/api/me', { token })).body.twoFactorEnabled).toBe(false);
  });
});
