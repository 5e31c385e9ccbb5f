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

const signIn = (email: string) => platform.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
const askToChange = (token: string, body: Record<string, unknown>) => platform.call('POST', '/api/me/email', { token, body });
const confirm = (token: string) => platform.call('POST', '/api/auth/email-change/confirm', { body: { token } });

const mails = (to: string, subject: string) => platform.mailsTo(to, subject);

/** The token of the newest confirmation link mailed to `to`. */
function mailedToken(to: string): string {
  const mail = mails(to, 'Confirm your new email address').at(-1)!;
  expect(mail.text).toContain(`${platform.url}/console/confirm-email#token=`);
  return linkToken(mail);
}

describe('changing the email', () => {
  it('mails a link to the new address; opening it changes the email, tells the old address, and the new one signs in', async () => {
    const { token, user } = await platform.register('old-address@example.org', { displayName: 'Mover' });
    const asked = await askToChange(token, { email: ' New-Address@Example.org ', password: PASSWORD });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toContain('new-address@example.org');
    // Nothing changes before the link is opened.
    expect((await platform.call('GET', '/api/me', { token })).body.email).toBe('old-address@example.org');

    const confirmed = await confirm(mailedToken('new-address@example.org'));
    expect(confirmed).toMatchObject({ status: 200, body: { email: 'new-address@example.org' } });
    expect((await platform.call('GET', '/api/me', { token })).body).toMatchObject({ id: user.id, email: 'new-address@example.org' });
    expect(mails('old-address@example.org', 'Your email address was changed')[0]!.text).toContain('new-address@example.org');
    expect((await signIn('new-address@example.org')).status).toBe(200);
    expect((await signIn('old-address@example.org')).status).toBe(401);
    // The old address is free for a new account.
    expect((await platform.call('POST', '/api/auth/register', { body: { email: 'old-address@example.org', password: PASSWORD } })).status).toBe(201);
  });

  it('a link asked with the old password stops working once the password changes or is reset', async () => {
    const { token } = await platform.register('retired-by-change@example.org');
    await askToChange(token, { email: 'asked-before-change@example.org', password: PASSWORD });
    const askedBeforeChange = mailedToken('asked-before-change@example.org');
    expect((await platform.call('PUT', '/api/me/password', { token, body: { currentPassword: PASSWORD, newPassword: 'a changed password' } })).status).toBe(200);
    expect((await confirm(askedBeforeChange)).body).toMatchObject({ code: 'IDENTITY_EMAIL_CHANGE_LINK_INVALID' });
    expect((await platform.call('GET', '/api/me', { token })).body.email).toBe('retired-by-change@example.org');

    const other = await platform.register('retired-by-reset@example.org');
    await askToChange(other.token, { email: 'asked-before-reset@example.org', password: PASSWORD });
    const askedBeforeReset = mailedToken('asked-before-reset@example.org');
    expect((await platform.call('POST', '/api/auth/password-reset', { body: { email: 'retired-by-reset@example.org' } })).status).toBe(202);
    await expect.poll(() => mails('retired-by-reset@example.org', 'Choose a new password').length).toBe(1);
    const reset = linkToken(mails('retired-by-reset@example.org', 'Choose a new password')[0]!);
    expect((await platform.call('POST', '/api/auth/password-reset/confirm', { body: { token: reset, password: 'the owner took it back' } })).status).toBe(200);
    expect((await confirm(askedBeforeReset)).body).toMatchObject({ code: 'IDENTITY_EMAIL_CHANGE_LINK_INVALID' });
    expect((await platform.call('POST', '/api/auth/login', { body: { email: 'retired-by-reset@example.org', password: 'the owner took it back' } })).status).toBe(200);
  });

  it('retires a reset link mailed to the old address once the new one is confirmed', async () => {
    const { token } = await platform.register('moving-on@example.org');
    expect((await platform.call('POST', '/api/auth/password-reset', { body: { email: 'moving-on@example.org' } })).status).toBe(202);
    await expect.poll(() => mails('moving-on@example.org', 'Choose a new password').length).toBe(1);
    const oldMailboxReset = linkToken(mails('moving-on@example.org', 'Choose a new password')[0]!);
    await askToChange(token, { email: 'moved-to@example.org', password: PASSWORD });
    expect((await confirm(mailedToken('moved-to@example.org'))).status).toBe(200);
    const refused = await platform.call('POST', '/api/auth/password-reset/confirm', { body: { token: oldMailboxReset, password: 'from the old mailbox' } });
    expect(refused.body).toMatchObject({ code: 'IDENTITY_RESET_LINK_INVALID' });
    expect((await signIn('moved-to@example.org')).status).toBe(200);
  });

  it('a link works once, and only the newest of a user’s links works', async () => {
    const { token } = await platform.register('twice@example.org');
    await askToChange(token, { email: 'first-choice@example.org', password: PASSWORD });
    const first = mailedToken('first-choice@example.org');
    await askToChange(token, { email: 'second-choice@example.org', password: PASSWORD });
    const second = mailedToken('second-choice@example.org');
    expect((await confirm(first)).body).toMatchObject({ code: 'IDENTITY_EMAIL_CHANGE_LINK_INVALID' });
    expect((await confirm(second)).status).toBe(200);
    expect((await confirm(second)).status).toBe(400);
    for (const bad of ['', 'x'.repeat(43), 'not a token']) expect((await confirm(bad)).status).toBe(400);
    expect((await platform.call('GET', '/api/me', { token })).body.email).toBe('second-choice@example.org');
  });

  it('refuses a wrong password, the current address and a malformed one, and mails nothing', async () => {
    const { token } = await platform.register('refused@example.org');
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ email: 'free@example.org', password: 'wrong password!' }, 403, 'IDENTITY_WRONG_PASSWORD'],
      [{ email: 'refused@example.org', password: PASSWORD }, 400, 'IDENTITY_EMAIL_UNCHANGED'],
      [{ email: 'not an address', password: PASSWORD }, 400, 'VALIDATION_FAILED'],
      [{ email: 'free@example.org', password: PASSWORD, confirm: true }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of cases) expect(await askToChange(token, body), JSON.stringify(body)).toMatchObject({ status, body: { code } });
    expect(mails('free@example.org', 'Confirm your new email address')).toEqual([]);
    expect((await platform.call('POST', '/api/me/email', { body: { email: 'free@example.org', password: PASSWORD } })).status).toBe(401);
  });

  it('answers a taken address as a free one, so it tells nobody who has an account; its link is refused and changes nothing', async () => {
    const { token } = await platform.register('prober@example.org');
    await platform.register('someone-else@example.org');
    const taken = await askToChange(token, { email: 'someone-else@example.org', password: PASSWORD });
    // Only the mailbox that holds the address sees the link, and confirming it changes nothing.
    expect((await confirm(mailedToken('someone-else@example.org'))).body).toMatchObject({ code: 'IDENTITY_EMAIL_TAKEN' });
    const free = await askToChange(token, { email: 'nobody-yet@example.org', password: PASSWORD });
    expect([taken.status, free.status]).toEqual([202, 202]);
    expect(taken.body.message.replace('someone-else', 'X')).toBe(free.body.message.replace('nobody-yet', 'X'));
    expect((await platform.call('GET', '/api/me', { token })).body.email).toBe('prober@example.org');
    expect((await signIn('someone-else@example.org')).status).toBe(200);
  });

  it('counts requests for taken addresses against the hourly limit, before anything is looked up', async () => {
    const { token } = await platform.register('counter@example.org');
    for (let index = 1; index <= 5; index += 1) await platform.register(`held-${index}@example.org`);
    for (let index = 1; index <= 5; index += 1) expect((await askToChange(token, { email: `held-${index}@example.org`, password: PASSWORD })).status).toBe(202);
    expect(await askToChange(token, { email: 'held-1@example.org', password: PASSWORD })).toMatchObject({ status: 429, body: { code: 'IDENTITY_TOO_MANY_EMAIL_CHANGES' } });
  });

  it('the link is refused when another account took the address meanwhile', async () => {
    const { token } = await platform.register('slow@example.org');
    await askToChange(token, { email: 'contested@example.org', password: PASSWORD });
    await platform.register('contested@example.org');
    expect((await confirm(mailedToken('contested@example.org'))).body).toMatchObject({ code: 'IDENTITY_EMAIL_TAKEN' });
    expect((await platform.call('GET', '/api/me', { token })).body.email).toBe('slow@example.org');
  });

  it('answers 429 past five requests an hour', async () => {
    const { token } = await platform.register('restless@example.org');
    for (let attempt = 1; attempt <= 5; attempt += 1) expect((await askToChange(token, { email: `choice-${attempt}@example.org`, password: PASSWORD })).status).toBe(202);
    const refused = await askToChange(token, { email: 'choice-6@example.org', password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
  });

  it('is not offered where mail goes to the log in production', async () => {
    const production = await startIdentityPlatform({ dev: false });
    try {
      const { token } = await production.register('prod-mover@example.org');
      expect((await production.call('POST', '/api/me/email', { token, body: { email: 'elsewhere@example.org', password: PASSWORD } })).body).toMatchObject({ code: 'IDENTITY_EMAIL_CHANGE_UNAVAILABLE' });
    } finally {
      await production.close();
    }
  });
});
