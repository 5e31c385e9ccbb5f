import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform();
});
afterAll(async () => {
  await platform?.close();
});

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

const signIn = async (email: string, userAgent?: string) => {
  const response = await platform.call('POST', '/api/auth/login', { body: { email, password: 'correct horse battery' }, headers: userAgent ? { 'user-agent': userAgent } : {} });
  expect(response.status).toBe(200);
  return response.body.token as string;
};
const listSessions = (token: string) => platform.call('GET', '/api/me/sessions', { token });
const me = (token: string) => platform.call('GET', '/api/me', { token });

describe('your sessions (/api/me/sessions)', () => {
  it('lists where you are signed in, newest first, naming each device and marking this one', async () => {
    const { token: registered } = await platform.register('devices@example.org');
    const laptop = await signIn('devices@example.org', FIREFOX);
    const phone = await signIn('devices@example.org', IPHONE);
    const listed = await listSessions(laptop);
    expect(listed.status).toBe(200);
    const { sessions } = listed.body;
    expect(sessions.map((session: { device: string | null }) => session.device)).toEqual(['Safari 17 on iOS', 'Firefox 133 on Windows', 'node']);
    expect(sessions.map((session: { current: boolean }) => session.current)).toEqual([false, true, false]);
    expect(sessions[1]).toEqual({
      id: expect.any(String),
      current: true,
      createdAt: expect.any(Number),
      expiresAt: sessions[1].createdAt + 30 * 24 * 60 * 60 * 1000,
      // This listing is a use of the laptop's session; the phone's has not been used since it signed in.
      lastUsedAt: expect.any(Number),
      device: 'Firefox 133 on Windows',
      userAgent: FIREFOX,
      address: '127.0.0.1',
    });
    expect(new Set(sessions.map((session: { id: string }) => session.id)).size).toBe(3);
    expect(sessions[0].lastUsedAt).toBeNull();
    expect(sessions[1].lastUsedAt).toBeGreaterThanOrEqual(sessions[1].createdAt);
    // Another user sees only their own; the phone sees the same three with itself current.
    const { token: stranger } = await platform.register('stranger@example.org');
    expect((await listSessions(stranger)).body.sessions).toHaveLength(1);
    expect((await listSessions(phone)).body.sessions.map((session: { current: boolean }) => session.current)).toEqual([true, false, false]);
    expect((await me(registered)).status).toBe(200);
  });

  it('ends one session by its id: that device is signed out, the others stay', async () => {
    await platform.register('lost-phone@example.org');
    const laptop = await signIn('lost-phone@example.org', FIREFOX);
    const phone = await signIn('lost-phone@example.org', IPHONE);
    const phoneId = (await listSessions(laptop)).body.sessions.find((session: { device: string }) => session.device === 'Safari 17 on iOS').id;
    const ended = await platform.call('DELETE', `/api/me/sessions/${phoneId}`, { token: laptop });
    expect(ended.status).toBe(204);
    expect(ended.headers.get('set-cookie')).toBeNull();
    expect((await me(phone)).status).toBe(401);
    expect((await me(laptop)).status).toBe(200);
    expect((await listSessions(laptop)).body.sessions.map((session: { id: string }) => session.id)).not.toContain(phoneId);
  });

  it("refuses an unknown id and someone else's session with 404, ending nothing", async () => {
    const { token: mine } = await platform.register('mine@example.org');
    const { token: theirs } = await platform.register('theirs@example.org');
    const theirId = (await listSessions(theirs)).body.sessions[0].id;
    const foreign = await platform.call('DELETE', `/api/me/sessions/${theirId}`, { token: mine });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'No session of yours has this id: it ended or was never yours', code: 'IDENTITY_SESSION_NOT_FOUND' });
    expect((await platform.call('DELETE', '/api/me/sessions/no-such-session', { token: mine })).status).toBe(404);
    expect((await me(theirs)).status).toBe(200);
    expect((await me(mine)).status).toBe(200);
  });

  it('ending this session signs out: the cookie is cleared and the token no longer works', async () => {
    const { token } = await platform.register('leaving@example.org');
    const id = (await listSessions(token)).body.sessions[0].id;
    const ended = await platform.call('DELETE', `/api/me/sessions/${id}`, { token });
    expect(ended.status).toBe(204);
    expect(ended.headers.get('set-cookie')).toMatch(/^session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await me(token)).status).toBe(401);
  });

  it('signs out everywhere else, keeping this session, and says how many ended', async () => {
    const { token } = await platform.register('everywhere@example.org');
    const others = [await signIn('everywhere@example.org', FIREFOX), await signIn('everywhere@example.org', IPHONE)];
    const ended = await platform.call('DELETE', '/api/me/sessions', { token });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ endedSessions: 2 });
    for (const other of others) expect((await me(other)).status).toBe(401);
    expect((await listSessions(token)).body.sessions.map((session: { current: boolean }) => session.current)).toEqual([true]);
    expect((await platform.call('DELETE', '/api/me/sessions', { token })).body).toEqual({ endedSessions: 0 });
  });

  it('needs a signed-in user', async () => {
    expect((await platform.call('GET', '/api/me/sessions')).status).toBe(401);
    expect((await platform.call('DELETE', '/api/me/sessions')).status).toBe(401);
    expect((await platform.call('DELETE', '/api/me/sessions/some-id')).status).toBe(401);
  });
});
