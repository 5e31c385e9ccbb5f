import { storeOnDisk } from '@platform/gateway/testing';
import { hashToken } from '@platform/kit';
import { createMemoryKeyValue } from '@platform/kv';
import { afterAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

/**
 * An upgrade from a version that indexed a user's sessions with a key each (before 2026-12-07):
 * the current version's start moves them into the user's map, so they are listed and ended with
 * the sessions it opens itself.
 */
describe("sessions an earlier version's index held", () => {
  const kv = createMemoryKeyValue();
  let disk: Awaited<ReturnType<typeof storeOnDisk>> | undefined;
  let platform: IdentityTestPlatform | undefined;
  afterAll(async () => {
    await platform?.close();
    await disk?.close();
  });

  it('are listed and ended after the start, as sessions it opened itself are', async () => {
    disk = await storeOnDisk('legacy-session-index-');
    platform = await startIdentityPlatform({ kv, store: disk.store });
    const { user } = await platform.register('earlier@example.org', { password: 'correct horse battery' });
    const signedIn = await platform.call('POST', '/api/auth/login', { body: { email: 'earlier@example.org', password: 'correct horse battery' } });
    expect(signedIn.status).toBe(200);
    await platform.close();
    platform = undefined;

    // What the earlier version left: the index a key per session, no record of the move.
    const map = `user-sessions:${user.id}`;
    for (const { field, value } of await kv.fields(map)) {
      await kv.set(`user-session:${user.id}:${field}`, value, { ttlMs: 60 * 60_000 });
      await kv.deleteField(map, field);
    }
    await kv.delete('migrations:user-sessions-map');
    expect(await kv.fields(map)).toEqual([]);

    platform = await startIdentityPlatform({ kv, store: disk.store });
    expect(platform.logs.find((line) => line.msg === 'session index of an earlier version moved to one map per user')).toMatchObject({ sessions: 2 });
    const token = signedIn.body.token as string;
    const listed = await platform.call('GET', '/api/me/sessions', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions.map((session: { current: boolean }) => session.current).sort()).toEqual([false, true]);
    expect(await kv.scan('user-session:')).toEqual([]);

    // Signing out everywhere else ends the registration's session, which only the old index knew.
    expect((await platform.call('DELETE', '/api/me/sessions', { token })).body).toEqual({ endedSessions: 1 });
    expect((await platform.call('GET', '/api/me/sessions', { token })).body.sessions).toHaveLength(1);
    expect(await kv.fields(map)).toEqual([{ field: hashToken(token), value: expect.any(String) }]);
  });
});
