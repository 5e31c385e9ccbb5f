import { createMemoryKeyValue } from '@platform/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withHeldWrites } from '../testing/held-writes';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';
import { MAX_ACCESS_TOKENS } from './access-tokens';

let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const makeToken = (token: string, body: unknown) => platform.call('POST', '/api/me/tokens', { token, body });
const listTokens = (token: string) => platform.call('GET', '/api/me/tokens', { token });
const revokeToken = (token: string, id: string) => platform.call('DELETE', `/api/me/tokens/${id}`, { token });
const me = (token: string) => platform.call('GET', '/api/me', { token });

describe('personal access tokens (/api/me/tokens)', () => {
  it('makes a named token, shown once, that acts as its user and is listed without its secret', async () => {
    const { token: session, user } = await platform.register('maker@example.org');
    const made = await makeToken(session, { name: '  nightly export ', expiresInDays: 30 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: expect.any(String), name: 'nightly export', access: 'read-write', token: expect.stringMatching(/^pat_[A-Za-z0-9_-]{43}$/), createdAt: expect.any(Number), expiresAt: made.body.createdAt + 30 * DAY_MS });
    const acting = await me(made.body.token);
    expect(acting.status).toBe(200);
    expect(acting.body.id).toBe(user.id);

    const byDefault = await makeToken(session, { name: 'ci' });
    expect(byDefault.body.expiresAt).toBe(byDefault.body.createdAt + 90 * DAY_MS);

    const listed = await listTokens(session);
    expect(listed.status).toBe(200);
    // The export token was used once (GET /api/me above), the CI one never.
    expect(listed.body.tokens).toEqual([
      { id: byDefault.body.id, name: 'ci', current: false, createdAt: byDefault.body.createdAt, expiresAt: byDefault.body.expiresAt, lastUsedAt: null, access: 'read-write' },
      { id: made.body.id, name: 'nightly export', current: false, createdAt: made.body.createdAt, expiresAt: made.body.expiresAt, lastUsedAt: expect.any(Number), access: 'read-write' },
    ]);
    expect(listed.body.tokens[1].lastUsedAt).toBeGreaterThanOrEqual(made.body.createdAt);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);
    expect((await listTokens(made.body.token)).body.tokens.map((token: { current: boolean }) => token.current)).toEqual([false, true]);
    // Tokens are not devices: the sessions list shows only the session that signed up.
    expect((await platform.call('GET', '/api/me/sessions', { token: session })).body.sessions).toHaveLength(1);
  });

  it('refuses to make a token with a token, and bad input, making nothing', async () => {
    const { token: session } = await platform.register('careful@example.org');
    const { token } = (await makeToken(session, { name: 'script' })).body;
    const byToken = await makeToken(token, { name: 'another' });
    expect(byToken.status).toBe(403);
    expect(byToken.body).toEqual({ error: 'Access tokens are made from a signed-in session, not with another access token', code: 'IDENTITY_TOKEN_NEEDS_SIGN_IN' });
    for (const body of [{ name: '   ' }, { name: 'x'.repeat(101) }, { name: 'a', expiresInDays: 0 }, { name: 'a', expiresInDays: 366 }, { name: 'a', expiresInDays: 1.5 }, { name: 'a', expiresIn: 10 }, { name: 'a', access: 'admin' }, {}]) {
      const refused = await makeToken(session, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await makeToken('', { name: 'anonymous' })).status).toBe(401);
    expect((await listTokens(session)).body.tokens.map((listed: { name: string }) => listed.name)).toEqual(['script']);
  });

  it('revokes a token by its id; other ids (a session, a stranger, a made-up one) are 404 and end nothing', async () => {
    const { token: session } = await platform.register('revoker@example.org');
    const { token: strangerSession } = await platform.register('stranger-tokens@example.org');
    const kept = (await makeToken(session, { name: 'kept' })).body;
    const lost = (await makeToken(session, { name: 'leaked' })).body;
    const strangers = (await makeToken(strangerSession, { name: 'theirs' })).body;
    const sessionId = (await platform.call('GET', '/api/me/sessions', { token: session })).body.sessions[0].id;

    for (const id of [strangers.id, sessionId, 'made-up']) {
      const refused = await revokeToken(session, id);
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe('IDENTITY_TOKEN_NOT_FOUND');
    }
    // A token is not a session either.
    expect((await platform.call('DELETE', `/api/me/sessions/${kept.id}`, { token: session })).status).toBe(404);
    for (const alive of [session, strangerSession, kept.token, lost.token, strangers.token]) expect((await me(alive)).status).toBe(200);

    expect((await revokeToken(session, lost.id)).status).toBe(204);
    expect((await me(lost.token)).status).toBe(401);
    expect((await me(kept.token)).status).toBe(200);
    expect((await listTokens(session)).body.tokens.map((listed: { name: string }) => listed.name)).toEqual(['kept']);
    // A token may revoke itself (a program retiring its own credential).
    expect((await revokeToken(kept.token, kept.id)).status).toBe(204);
    expect((await me(kept.token)).status).toBe(401);
  });

  it('outlives signing out elsewhere and a password change, which end devices only', async () => {
    const { token: session } = await platform.register('integrations@example.org', { password: 'first password' });
    const other = (await platform.call('POST', '/api/auth/login', { body: { email: 'integrations@example.org', password: 'first password' } })).body.token;
    const { token } = (await makeToken(session, { name: 'sync job' })).body;
    expect((await platform.call('DELETE', '/api/me/sessions', { token: session })).body).toEqual({ endedSessions: 1 });
    expect((await me(other)).status).toBe(401);
    expect((await me(token)).status).toBe(200);
    const changed = await platform.call('PUT', '/api/me/password', { token: session, body: { currentPassword: 'first password', newPassword: 'second password' } });
    expect(changed.body).toEqual({ endedSessions: 0 });
    expect((await me(token)).status).toBe(200);
  });

  it(`holds at most ${MAX_ACCESS_TOKENS} live tokens a user`, async () => {
    const { token: session } = await platform.register('hoarder@example.org');
    for (let made = 0; made < MAX_ACCESS_TOKENS; made += 1) expect((await makeToken(session, { name: `token ${made}` })).status).toBe(201);
    const refused = await makeToken(session, { name: 'one too many' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('IDENTITY_TOO_MANY_TOKENS');
    const first = (await listTokens(session)).body.tokens.at(-1);
    expect((await revokeToken(session, first.id)).status).toBe(204);
    expect((await makeToken(session, { name: 'one too many' })).status).toBe(201);
  });

  it(`holds the limit of ${MAX_ACCESS_TOKENS} against a token whose write lands after another's check`, async () => {
    const kv = withHeldWrites(createMemoryKeyValue());
    const held = await startIdentityPlatform({ kv: kv.kv });
    try {
      const make = (token: string, name: string) => held.call('POST', '/api/me/tokens', { token, body: { name } });
      const { token: session, user } = await held.register('racer@example.org');
      for (let made = 1; made < MAX_ACCESS_TOKENS; made += 1) expect((await make(session, `token ${made}`)).status).toBe(201);
      // The last free place is checked by two requests; the first one's token is written only after the second's.
      const hold = kv.holdNext('setField', `user-sessions:${user.id}`);
      const slow = make(session, 'slow');
      await hold.caught;
      const quick = await make(session, 'quick');
      hold.release();
      expect(quick.status).toBe(201);
      expect((await slow).body.code).toBe('IDENTITY_TOO_MANY_TOKENS');
      const live = (await held.call('GET', '/api/me/tokens', { token: session })).body.tokens as Array<{ name: string }>;
      expect(live).toHaveLength(MAX_ACCESS_TOKENS);
      expect(live.map((token) => token.name)).not.toContain('slow');
    } finally {
      await held.close();
    }
  });
});
