import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryKeyValue } from '@platform/kv';
import { createEmbeddedStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkToken, startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

const PASSWORD = 'correct horse battery';
let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform({ config: { requireConfirmedEmail: true } });
});
afterAll(async () => {
  await platform?.close();
});

const confirmationLink = (to: string) => platform.mailsTo(to).filter((mail) => mail.text.includes('/console/verify-email#token=')).map(linkToken).at(-1);
const status = async (method: string, path: string, token: string, body?: unknown) => {
  const answer = await platform.call(method, path, { token, body });
  return answer.status === 403 ? `403 ${answer.body.code}` : answer.status;
};

/** An account whose email is confirmed, as the gateway would let work. */
async function confirmedAccount(email: string) {
  const account = await platform.register(email);
  await expect.poll(() => confirmationLink(email)).toBeDefined();
  expect((await platform.call('POST', '/api/auth/verify-email', { body: { token: confirmationLink(email) } })).status).toBe(200);
  return account;
}

describe('IDENTITY_REQUIRE_CONFIRMED_EMAIL=true', () => {
  it('limits an unconfirmed account to itself, its sessions and tokens alike, until the mailed link confirms it; then the same session works', async () => {
    const bea = await confirmedAccount('bea-confirmed@example.org');
    const shared = (await platform.call('POST', '/api/projects', { token: bea.token, body: { name: 'Shared' } })).body;
    const ada = await platform.register('ada-unconfirmed@example.org');
    expect(ada.user).toMatchObject({ emailVerified: false, emailConfirmationRequired: true });
    const invitation = (await platform.call('POST', `/api/projects/${shared.id}/members`, { token: bea.token, body: { userId: ada.user.id } })).body;
    const readToken = (await platform.call('POST', '/api/me/tokens', { token: ada.token, body: { name: 'script' } })).body.token;

    // Its own account: yes. Everything else, and joining a project: 403, and nothing changes.
    expect((await platform.call('GET', '/api/me', { token: ada.token })).body.emailConfirmationRequired).toBe(true);
    expect(await status('PUT', '/api/me/profile', ada.token, { displayName: 'Ada' })).toBe(200);
    expect(await status('GET', '/api/me/invitations', ada.token)).toBe(200);
    for (const [method, path, body] of [
      ['GET', '/api/projects'],
      ['POST', '/api/projects', { name: 'Mine' }],
      ['GET', '/api/tenants'],
      ['GET', `/api/users/${bea.user.id}`],
      ['POST', `/api/me/invitations/${invitation.id}/accept`],
    ] as const) {
      expect(await status(method, path, ada.token, body), `${method} ${path}`).toBe('403 GATEWAY_EMAIL_UNCONFIRMED');
    }
    expect(await status('GET', '/api/projects', readToken)).toBe('403 GATEWAY_EMAIL_UNCONFIRMED');

    // The welcome mail's link: the session and the token it already has work from then on.
    await expect.poll(() => confirmationLink('ada-unconfirmed@example.org')).toBeDefined();
    expect((await platform.call('POST', '/api/auth/verify-email', { body: { token: confirmationLink('ada-unconfirmed@example.org') } })).status).toBe(200);
    expect((await platform.call('GET', '/api/me', { token: ada.token })).body).toMatchObject({ emailVerified: true, emailConfirmationRequired: false });
    expect((await platform.call('GET', '/api/projects', { token: ada.token })).body.items).toEqual([]);
    expect(await status('GET', '/api/projects', readToken)).toBe(200);
    expect(await status('POST', `/api/me/invitations/${invitation.id}/accept`, ada.token)).toBe(200);
    expect((await platform.call('GET', '/api/projects', { token: ada.token })).body.items.map((project: { id: string }) => project.id)).toEqual([shared.id]);
  });

  it('lets a mistyped address be corrected: the new address confirmed by its link lifts the limit', async () => {
    const carl = await platform.register('carl@exmaple.org');
    expect(await status('GET', '/api/projects', carl.token)).toBe('403 GATEWAY_EMAIL_UNCONFIRMED');
    expect(await status('POST', '/api/me/email', carl.token, { email: 'carl@example.org', password: PASSWORD })).toBe(202);
    const [changeMail] = platform.mailsTo('carl@example.org', 'Confirm your new email address');
    expect((await platform.call('POST', '/api/auth/email-change/confirm', { body: { token: linkToken(changeMail!) } })).status).toBe(200);
    expect(await status('GET', '/api/projects', carl.token)).toBe(200);
  });

  it('a platform owner confirms an address for someone whose mail does not arrive (their sessions follow at once), or asks for the link again', async () => {
    const erin = await platform.register('erin-no-mail@example.org');
    const root = await platform.signIn('root', { platformOwner: true });
    const change = (body: unknown, token = root) => platform.call('PATCH', `/api/admin/users/${erin.user.id}`, { token, body });
    expect(await status('GET', '/api/projects', erin.token)).toBe('403 GATEWAY_EMAIL_UNCONFIRMED');
    expect((await change({ emailVerified: true }, erin.token)).status).toBe(403);
    expect((await change({})).body.code).toBe('IDENTITY_NOTHING_TO_CHANGE');
    expect(await status('GET', '/api/projects', erin.token)).toBe('403 GATEWAY_EMAIL_UNCONFIRMED');

    expect((await change({ emailVerified: true })).body).toMatchObject({ emailVerified: true, emailConfirmationRequired: false, platformOwner: false });
    expect(await status('GET', '/api/projects', erin.token)).toBe(200);
    expect((await change({ emailVerified: false })).body).toMatchObject({ emailVerified: false, emailConfirmationRequired: true });
    expect(await status('GET', '/api/projects', erin.token)).toBe('403 GATEWAY_EMAIL_UNCONFIRMED');
  });

  it('a password reset, whose link proves the address too, opens an unlimited session', async () => {
    await platform.register('dora@example.org');
    await platform.call('POST', '/api/auth/password-reset', { body: { email: 'dora@example.org' } });
    await expect.poll(() => platform.mailsTo('dora@example.org', 'Choose a new password').length).toBe(1);
    const [resetMail] = platform.mailsTo('dora@example.org', 'Choose a new password');
    const reset = await platform.call('POST', '/api/auth/password-reset/confirm', { body: { token: linkToken(resetMail!), password: 'remembered at last' } });
    expect(reset.body.user.emailConfirmationRequired).toBe(false);
    expect(await status('GET', '/api/projects', reset.body.token)).toBe(200);
  });
});

describe('IDENTITY_REQUIRE_CONFIRMED_EMAIL changed between starts', () => {
  it('limits the sessions unconfirmed accounts already hold when turned on, and frees them when turned off; confirmed ones never', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'confirmed-email-setting-'));
    const store = await createEmbeddedStore({ dataDir });
    const kv = createMemoryKeyValue();
    const restart = async (requireConfirmedEmail: boolean) => startIdentityPlatform({ store, kv, config: { requireConfirmedEmail } });
    let running = await restart(false);
    try {
      const early = await running.register('early@example.org');
      const confirmed = await running.register('confirmed-early@example.org');
      await expect.poll(() => running.mailsTo('confirmed-early@example.org').length).toBe(1);
      expect((await running.call('POST', '/api/auth/verify-email', { body: { token: linkToken(running.mailsTo('confirmed-early@example.org')[0]!) } })).status).toBe(200);
      const projects = (token: string) => running.call('GET', '/api/projects', { token }).then((answer) => answer.status);
      expect([await projects(early.token), await projects(confirmed.token)]).toEqual([200, 200]);

      await running.close();
      running = await restart(true);
      await expect.poll(() => projects(early.token)).toBe(403);
      expect(await projects(confirmed.token)).toBe(200);

      await running.close();
      running = await restart(false);
      await expect.poll(() => projects(early.token)).toBe(200);
    } finally {
      await running.close();
      await kv.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
