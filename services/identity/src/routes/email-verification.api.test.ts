import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkToken, startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const PASSWORD = 'correct horse battery';
let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform();
});
afterAll(async () => {
  await platform?.close();
});

/** The tokens of the confirmation links mailed to `to` (welcome mail and again), oldest first. */
function mailedTokens(to: string): string[] {
  return platform
    .mailsTo(to)
    .filter((mail) => mail.text.includes('/console/verify-email#token='))
    .map(linkToken);
}
const verify = (token: string) => platform.call('POST', '/api/auth/verify-email', { body: { token } });
const me = async (token: string) => (await platform.call('GET', '/api/me', { token })).body;

describe('confirming the email address', () => {
  it('the welcome mail carries a link that confirms it, once', async () => {
    const { token } = await platform.register('welcomed@example.org');
    expect((await me(token)).emailVerified).toBe(false);
    await expect.poll(() => mailedTokens('welcomed@example.org').length).toBe(1);
    const [link] = mailedTokens('welcomed@example.org');
    expect(await verify(link!)).toMatchObject({ status: 200, body: { email: 'welcomed@example.org' } });
    expect((await me(token)).emailVerified).toBe(true);
    expect((await verify(link!)).body.code).toBe('IDENTITY_VERIFICATION_LINK_INVALID');
    expect((await platform.call('POST', '/api/me/email-verification', { token })).body.code).toBe('IDENTITY_EMAIL_VERIFIED');
  });

  it('a new link retires the one before; 429 past five an hour', async () => {
    const { token } = await platform.register('slow-reader@example.org');
    await expect.poll(() => mailedTokens('slow-reader@example.org').length).toBe(1);
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await platform.call('POST', '/api/me/email-verification', { token })).status).toBe(202);
    expect((await platform.call('POST', '/api/me/email-verification', { token })).status).toBe(429);
    const tokens = mailedTokens('slow-reader@example.org');
    expect(tokens).toHaveLength(6);
    expect((await verify(tokens[0]!)).status).toBe(400);
    expect((await verify(tokens.at(-1)!)).status).toBe(200);
    for (const bad of ['', 'x'.repeat(43), 'not a token']) expect((await verify(bad)).status).toBe(400);
  });

  it('a link for an address the account no longer has proves nothing; a confirmed email change and a password reset prove the new one', async () => {
    const { token } = await platform.register('moving-on@example.org');
    await expect.poll(() => mailedTokens('moving-on@example.org').length).toBe(1);
    const old = mailedTokens('moving-on@example.org')[0]!;
    expect((await platform.call('POST', '/api/me/email', { token, body: { email: 'moved-on@example.org', password: PASSWORD } })).status).toBe(202);
    const [changeMail] = platform.mailsTo('moved-on@example.org', 'Confirm your new email address');
    expect((await platform.call('POST', '/api/auth/email-change/confirm', { body: { token: linkToken(changeMail!) } })).status).toBe(200);
    expect((await me(token)).emailVerified).toBe(true);
    expect((await verify(old)).body.code).toBe('IDENTITY_VERIFICATION_LINK_INVALID');

    await platform.register('forgetful@example.org');
    await platform.call('POST', '/api/auth/password-reset', { body: { email: 'forgetful@example.org' } });
    await expect.poll(() => platform.mailsTo('forgetful@example.org', 'Choose a new password').length).toBe(1);
    const [resetMail] = platform.mailsTo('forgetful@example.org', 'Choose a new password');
    const reset = await platform.call('POST', '/api/auth/password-reset/confirm', { body: { token: linkToken(resetMail!), password: 'remembered at last' } });
    expect(reset.body.user.emailVerified).toBe(true);
  });
});
