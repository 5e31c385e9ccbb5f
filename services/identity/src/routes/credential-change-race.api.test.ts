import { createMemoryKeyValue } from '@platform/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withHeldWrites } from '../testing/held-writes';
import { linkToken, RACE_LOGIN_LIMITS, startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

/**
 * A sign-in that checked the old password while the password changes (or the account goes) must
 * not keep a session: either the change's revocation finds it, or the sign-in sees the change and
 * ends it itself (docs/identity.md, *Changing and resetting a password*).
 */

const OLD = 'old password one';
const NEW = 'new password two';

let platform: IdentityTestPlatform;
const store = withHeldWrites(createMemoryKeyValue());

beforeAll(async () => {
  platform = await startIdentityPlatform({ kv: store.kv });
});
afterAll(async () => {
  await platform?.close();
  await store.kv.close();
});

const signIn = (email: string, password: string, on = platform, headers: Record<string, string> = {}) => on.call('POST', '/api/auth/login', { body: { email, password }, headers });
const me = (token: string, on = platform) => on.call('GET', '/api/me', { token });
const sessionsOf = async (token: string, on = platform) => ((await on.call('GET', '/api/me/sessions', { token })).body.sessions as Array<{ id: string; current: boolean }>);

/** Signs in with `password` as `email`, its session's write held until `meanwhile` is done; answers the sign-in's answer. */
async function signInAcross(userId: string, email: string, password: string, meanwhile: () => Promise<void>) {
  const hold = store.holdNext('setField', `user-sessions:${userId}`);
  const signingIn = signIn(email, password);
  await hold.caught;
  try {
    await meanwhile();
  } finally {
    hold.release();
  }
  return signingIn;
}

/** What a sign-in across a credential change must answer: refused, or a session that no longer works. */
async function expectNoSessionFrom(answer: { status: number; body: any }): Promise<void> {
  if (answer.status === 200) expect((await me(answer.body.token)).status, 'the session the old password opened').toBe(401);
  expect(answer.status).toBe(401);
  expect(answer.body.code).toBe('IDENTITY_INVALID_CREDENTIALS');
}

describe('a sign-in with the old password across a credential change', () => {
  it('a password change (PUT /api/me/password) ends it: the sign-in is refused, nothing is listed', async () => {
    const { token, user } = await platform.register('race-change@example.org', { password: OLD });
    const answer = await signInAcross(user.id, 'race-change@example.org', OLD, async () => {
      const changed = await platform.call('PUT', '/api/me/password', { token, body: { currentPassword: OLD, newPassword: NEW } });
      expect(changed.status).toBe(200);
    });
    await expectNoSessionFrom(answer);
    expect((await sessionsOf(token)).map((session) => session.current)).toEqual([true]);
    expect((await me(token)).status).toBe(200);
    expect((await signIn('race-change@example.org', NEW)).status).toBe(200);
  });

  it('a password reset (POST /api/auth/password-reset/confirm) ends it', async () => {
    const { user } = await platform.register('race-reset@example.org', { password: OLD });
    expect((await platform.call('POST', '/api/auth/password-reset', { body: { email: 'race-reset@example.org' } })).status).toBe(202);
    await expect.poll(() => platform.mailsTo('race-reset@example.org', 'Choose a new password').length).toBe(1);
    const resetToken = linkToken(platform.mailsTo('race-reset@example.org', 'Choose a new password')[0]!);
    let resetSession = '';
    const answer = await signInAcross(user.id, 'race-reset@example.org', OLD, async () => {
      const confirmed = await platform.call('POST', '/api/auth/password-reset/confirm', { body: { token: resetToken, password: NEW } });
      expect(confirmed.status).toBe(200);
      resetSession = confirmed.body.token;
    });
    await expectNoSessionFrom(answer);
    expect((await sessionsOf(resetSession)).map((session) => session.current)).toEqual([true]);
  });

  it('deleting the account (DELETE /api/me) ends it', async () => {
    const { token, user } = await platform.register('race-delete@example.org', { password: OLD });
    const answer = await signInAcross(user.id, 'race-delete@example.org', OLD, async () => {
      expect((await platform.call('DELETE', '/api/me', { token, body: { password: OLD } })).status).toBe(200);
    });
    await expectNoSessionFrom(answer);
    expect((await store.kv.fields(`user-sessions:${user.id}`)).length).toBe(0);
  });

  it('a password reset also ends an access token a session of the old password was making meanwhile', async () => {
    const { token, user } = await platform.register('race-token@example.org', { password: OLD });
    expect((await platform.call('POST', '/api/auth/password-reset', { body: { email: 'race-token@example.org' } })).status).toBe(202);
    await expect.poll(() => platform.mailsTo('race-token@example.org', 'Choose a new password').length).toBe(1);
    const resetToken = linkToken(platform.mailsTo('race-token@example.org', 'Choose a new password')[0]!);
    // The token's first write is held until the reset has ended the account's sessions and tokens.
    const hold = store.holdNext('setField', `user-sessions:${user.id}`);
    const making = platform.call('POST', '/api/me/tokens', { token, body: { name: 'kept by whoever signed in' } });
    await hold.caught;
    let resetSession = '';
    try {
      const confirmed = await platform.call('POST', '/api/auth/password-reset/confirm', { body: { token: resetToken, password: NEW } });
      expect(confirmed.status).toBe(200);
      resetSession = confirmed.body.token;
    } finally {
      hold.release();
    }
    const made = await making;
    if (made.status === 201) expect((await me(made.body.token)).status, 'the token made across the reset').toBe(401);
    expect([made.status, made.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await platform.call('GET', '/api/me/tokens', { token: resetSession })).body.tokens).toEqual([]);
    expect((await sessionsOf(resetSession)).map((session) => session.current)).toEqual([true]);
  });

  it('no held write: eight sign-ins 15 ms apart while the password changes leave no session the old password opened', async () => {
    // The report's reproduction as it came, on the unaltered embedded store; its own platform, each
    // round from its own client address, so the per-address count of failed sign-ins never limits it.
    const plain = await startIdentityPlatform({ trustProxy: 1, config: { loginLimits: RACE_LOGIN_LIMITS } });
    try {
      for (let round = 0; round < 6; round += 1) {
        const email = `race-round-${round}@example.org`;
        const headers = { 'x-forwarded-for': `192.0.2.${round + 1}` };
        const { token } = await plain.register(email, { password: OLD });
        const signIns: Array<Promise<{ status: number; body: any }>> = [];
        for (let attempt = 0; attempt < 8; attempt += 1) {
          signIns.push(signIn(email, OLD, plain, headers));
          await new Promise((resolve) => setTimeout(resolve, 15));
          if (attempt === 2) signIns.push(plain.call('PUT', '/api/me/password', { token, body: { currentPassword: OLD, newPassword: NEW } }).then((changed) => {
            expect(changed.status).toBe(200);
            return { status: 0, body: undefined };
          }));
        }
        const answers = await Promise.all(signIns);
        for (const answer of answers.filter(({ status }) => status === 200)) expect((await me(answer.body.token, plain)).status, `round ${round}`).toBe(401);
        expect((await sessionsOf(token, plain)).map((session) => session.current), `round ${round}`).toEqual([true]);
      }
    } finally {
      await plain.close();
    }
  }, 20_000);
});

describe('a password change across a password reset', () => {
  it('a password change whose current password a reset replaced meanwhile is refused: the reset\'s password stays', async () => {
    const { token: owner } = await platform.register('race-takeover@example.org', { password: OLD });
    // Someone holding the old password, signed in.
    const intruder = (await signIn('race-takeover@example.org', OLD)).body.token as string;
    expect((await platform.call('POST', '/api/auth/password-reset', { body: { email: 'race-takeover@example.org' } })).status).toBe(202);
    await expect.poll(() => platform.mailsTo('race-takeover@example.org', 'Choose a new password').length).toBe(1);
    const resetToken = linkToken(platform.mailsTo('race-takeover@example.org', 'Choose a new password')[0]!);
    // The change is held once its current password is checked (the sign-in count given back).
    const hold = store.holdNext('increment', 'login-failures:ip:');
    const changing = platform.call('PUT', '/api/me/password', { token: intruder, body: { currentPassword: OLD, newPassword: 'the intruder chose this' } });
    await hold.caught;
    try {
      expect((await platform.call('POST', '/api/auth/password-reset/confirm', { body: { token: resetToken, password: NEW } })).status).toBe(200);
    } finally {
      hold.release();
    }
    const changed = await changing;
    expect(changed.status).toBe(403);
    expect(changed.body.code).toBe('IDENTITY_WRONG_PASSWORD');
    expect((await signIn('race-takeover@example.org', 'the intruder chose this')).status).toBe(401);
    expect((await signIn('race-takeover@example.org', NEW)).status).toBe(200);
    expect((await me(owner)).status).toBe(401);
  });
});
