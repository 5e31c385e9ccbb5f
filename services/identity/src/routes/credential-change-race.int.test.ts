import { randomUUID } from 'node:crypto';
import { createMemoryKeyValue } from '@platform/kv';
import { createMongoStore, type DocumentStore } from '@platform/storage';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withHeldWrites } from '../testing/held-writes';
import { RACE_LOGIN_LIMITS, startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

/**
 * The sign-in race of credential-change-race.api.test.ts with the users in MongoDB (the store the
 * report saw it on every round): a sign-in that checked the old password keeps no session once the
 * password change has answered.
 */
const OLD = 'old password one';

const NEW = 'new password two';

describeWithBackend('mongo', 'a sign-in with the old password across a password change (MongoDB)', ({ url }) => {
  let store: DocumentStore;
  let platform: IdentityTestPlatform;
  const kv = withHeldWrites(createMemoryKeyValue());

  beforeAll(async () => {
    store = await createMongoStore({ url, database: `identity_credentials_${randomUUID().slice(0, 8)}` });
    // Each round signs in from its own client address, so the per-address count of failures never limits it.
    platform = await startIdentityPlatform({ store, kv: kv.kv, trustProxy: 1, config: { loginLimits: RACE_LOGIN_LIMITS } });
  });
  afterAll(async () => {
    await platform?.close();
    await store?.close();
    await kv.kv.close();
  });

  const signIn = (email: string, password: string, headers: Record<string, string> = {}) => platform.call('POST', '/api/auth/login', { body: { email, password }, headers });
  const me = (token: string) => platform.call('GET', '/api/me', { token });
  const currentFlags = async (token: string) => ((await platform.call('GET', '/api/me/sessions', { token })).body.sessions as Array<{ current: boolean }>).map((session) => session.current);

  it('a sign-in whose session is written after the change is refused', async () => {
    const { token, user } = await platform.register('held@example.org', { password: OLD });
    const hold = kv.holdNext('setField', `user-sessions:${user.id}`);
    const signingIn = signIn('held@example.org', OLD);
    await hold.caught;
    try {
      expect((await platform.call('PUT', '/api/me/password', { token, body: { currentPassword: OLD, newPassword: NEW } })).status).toBe(200);
    } finally {
      hold.release();
    }
    const answer = await signingIn;
    if (answer.status === 200) expect((await me(answer.body.token)).status, 'the session the old password opened').toBe(401);
    expect(answer.body.code).toBe('IDENTITY_INVALID_CREDENTIALS');
    expect(await currentFlags(token)).toEqual([true]);
  });

  it('eight sign-ins 15 ms apart while the password changes leave no session the old password opened', async () => {
    for (let round = 0; round < 6; round += 1) {
      const email = `round-${round}@example.org`;
      const headers = { 'x-forwarded-for': `192.0.2.${round + 1}` };
      const { token } = await platform.register(email, { password: OLD });
      const signIns: Array<Promise<{ status: number; body: any }>> = [];
      for (let attempt = 0; attempt < 8; attempt += 1) {
        signIns.push(signIn(email, OLD, headers));
        await new Promise((resolve) => setTimeout(resolve, 15));
        if (attempt === 2) {
          const changing = platform.call('PUT', '/api/me/password', { token, body: { currentPassword: OLD, newPassword: NEW } });
          signIns.push(changing.then((changed) => (expect(changed.status).toBe(200), { status: 0, body: undefined })));
        }
      }
      const answers = await Promise.all(signIns);
      for (const answer of answers.filter(({ status }) => status === 200)) expect((await me(answer.body.token)).status, `round ${round}`).toBe(401);
      expect(await currentFlags(token), `round ${round}`).toEqual([true]);
    }
  }, 20_000);
});
