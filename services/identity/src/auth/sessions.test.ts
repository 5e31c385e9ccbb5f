import { sessionKey } from '@platform/contracts';
import { hashToken } from '@platform/kit';
import { createMemoryKeyValue, type KeyValue } from '@platform/kv';
import { describe, expect, it } from 'vitest';
import type { StoredUser } from '../users/user-record';
import { moveLegacySessionIndex } from './legacy-session-index';
import { MAX_SESSIONS_PER_USER, Sessions } from './sessions';

const user = { id: 'user-1', platformOwner: false, displayName: 'Ada' } as StoredUser;

/**
 * A memory KeyValue whose next read of a session record is followed, before it answers, by what
 * `afterNextRead` set up: another write landing between a read of the record and its write.
 */
function sessionReadsInterleaved() {
  const memory = createMemoryKeyValue();
  let meanwhile: (() => Promise<unknown>) | undefined;
  const kv: KeyValue = {
    ...memory,
    kind: memory.kind,
    get: async (key) => {
      const value = await memory.get(key);
      const next = key.startsWith('session:') ? meanwhile : undefined;
      meanwhile = undefined;
      await next?.();
      return value;
    },
  };
  return { memory, kv, afterNextRead: (write: () => Promise<unknown>) => void (meanwhile = write) };
}

describe('Sessions', () => {
  it('lists a session opened before devices were kept (its index holds the bare id) without a device, and ends it', async () => {
    const kv = createMemoryKeyValue();
    const sessions = new Sessions(kv, () => 1_000);
    const tokenHash = hashToken('an old token');
    await kv.set(sessionKey(tokenHash), JSON.stringify({ id: 'old-session', userId: user.id, createdAt: 500, expiresAt: 9_000, platformOwner: false }));
    // Indexed as versions before 2026-12-07 did, and moved at the start as theirs is.
    await kv.set(`user-session:${user.id}:${tokenHash}`, 'old-session');
    expect(await moveLegacySessionIndex(kv, () => 1_000)).toBe(1);
    await sessions.create(user, { userAgent: 'curl/8.5.0', address: '203.0.113.7' });

    const listed = await sessions.list(user.id, 'session');
    expect(listed.map(({ id, device, address }) => ({ id: id === 'old-session' ? id : 'new', device, address }))).toEqual([
      { id: 'new', device: 'curl 8.5.0', address: '203.0.113.7' },
      { id: 'old-session', device: null, address: null },
    ]);
    expect(listed[1]).toMatchObject({ createdAt: 500, expiresAt: 9_000, userAgent: null });

    expect(await sessions.revokeById(user.id, 'old-session')).toBe(true);
    expect(await kv.get(sessionKey(tokenHash))).toBeNull();
    expect(await sessions.revokeById(user.id, 'old-session')).toBe(false);
    expect((await sessions.list(user.id, 'session')).map(({ device }) => device)).toEqual(['curl 8.5.0']);
  });

  it(`keeps a user's ${MAX_SESSIONS_PER_USER} newest sessions: signing in once more ends the oldest, never an access token`, async () => {
    let now = 10_000;
    const kv = createMemoryKeyValue({ now: () => now });
    const sessions = new Sessions(kv, () => now);
    const token = await sessions.createAccessToken(user, 'script', 60 * 60_000, {});
    const opened: string[] = [];
    for (let count = 0; count < MAX_SESSIONS_PER_USER + 2; count += 1) {
      now += 1;
      opened.push((await sessions.create(user, {})).token);
    }
    const live = await sessions.list(user.id, 'session');
    expect(live).toHaveLength(MAX_SESSIONS_PER_USER);
    expect(Math.min(...live.map((session) => session.createdAt))).toBe(10_003);
    for (const ended of opened.slice(0, 2)) expect(await kv.get(sessionKey(hashToken(ended)))).toBeNull();
    expect(await kv.get(sessionKey(hashToken(opened[2]!)))).not.toBeNull();
    expect(await kv.get(sessionKey(hashToken(token.token)))).not.toBeNull();
    expect(await sessions.list(user.id, 'token')).toHaveLength(1);
  });

  it('scans no key space to sign in, list, amend, refresh or end sessions: one user\'s index is one map', async () => {
    const inner = createMemoryKeyValue();
    let scans = 0;
    const kv: KeyValue = { ...inner, scan: (prefix) => ((scans += 1), inner.scan(prefix)) };
    const sessions = new Sessions(kv, () => 1_000);
    const opened = await sessions.create(user, {});
    const other = await sessions.create({ ...user, id: 'user-2' }, {});
    const token = await sessions.createAccessToken(user, 'script', 60 * 60_000, {});
    expect((await sessions.list(user.id, 'session')).map(({ id }) => id)).toEqual([opened.session.id]);
    expect(await sessions.kind(user.id, token.session.id)).toBe('token');
    expect(await sessions.amendToken(user.id, token.session.id, async () => ({ name: 'renamed', grant: {} }))).toMatchObject({ name: 'renamed' });
    await sessions.refresh({ ...user, displayName: 'Ada L.' });
    await sessions.revoke(opened.token);
    expect(await sessions.revokeAll(user.id)).toBe(1);
    expect(await sessions.list(user.id, 'token')).toEqual([]);
    expect((await sessions.list('user-2', 'session')).map(({ id }) => id)).toEqual([other.session.id]);
    expect(scans).toBe(0);
  });

  it("moves an earlier version's session index once: live sessions keep their expiry, ended ones are dropped, a second start scans nothing", async () => {
    let now = 1_000;
    const inner = createMemoryKeyValue({ now: () => now });
    let scans = 0;
    const kv: KeyValue = { ...inner, scan: (prefix) => ((scans += 1), inner.scan(prefix)) };
    const live = hashToken('live token');
    const ended = hashToken('ended token');
    await kv.set(sessionKey(live), JSON.stringify({ id: 'live', userId: 'user:with:colons', createdAt: 500, expiresAt: 61_000, platformOwner: false }), { ttlMs: 60_000 });
    await kv.set(`user-session:user:with:colons:${live}`, JSON.stringify({ id: 'live', createdAt: 500 }), { ttlMs: 60_000 });
    await kv.set(`user-session:${user.id}:${ended}`, JSON.stringify({ id: 'ended', createdAt: 500 }), { ttlMs: 60_000 });

    expect(await moveLegacySessionIndex(kv, () => now)).toBe(1);
    expect(await kv.scan('user-session:')).toEqual([]);
    const sessions = new Sessions(kv, () => now);
    expect((await sessions.list('user:with:colons', 'session')).map(({ id, expiresAt }) => ({ id, expiresAt }))).toEqual([{ id: 'live', expiresAt: 61_000 }]);
    expect(await sessions.list(user.id, 'session')).toEqual([]);

    scans = 0;
    expect(await moveLegacySessionIndex(kv, () => now)).toBe(0);
    expect(scans).toBe(0);
    now += 60_001;
    expect(await kv.fields('user-sessions:user:with:colons')).toEqual([]);
  });

  it('leaves no session behind when the store fails while making room for it', async () => {
    const inner = createMemoryKeyValue();
    const kv: KeyValue = { ...inner, fields: () => Promise.reject(new Error('connection refused')) };
    await expect(new Sessions(kv, () => 1_000).create(user, {})).rejects.toMatchObject({ statusCode: 503 });
    expect(await inner.scan('session:')).toEqual([]);
  });

  it('brings back no token or session revoked while it was being changed or refreshed: the revocation wins', async () => {
    // The revocation comes in between, as a sign-out would.
    const { memory, kv, afterNextRead } = sessionReadsInterleaved();
    const sessions = new Sessions(kv, () => 1_000);
    const made = await sessions.createAccessToken(user, 'script', 60 * 60_000, {});
    afterNextRead(() => sessions.revokeById(user.id, made.session.id, 'token'));
    expect(await sessions.amendToken(user.id, made.session.id, async () => ({ name: 'renamed', grant: { readOnly: true } }))).toBeNull();
    expect(await memory.get(sessionKey(hashToken(made.token)))).toBeNull();
    expect(await sessions.list(user.id, 'token')).toEqual([]);

    const opened = await sessions.create(user, {});
    afterNextRead(() => sessions.revoke(opened.token));
    await sessions.refresh({ ...user, displayName: 'Ada L.' });
    expect(await memory.get(sessionKey(hashToken(opened.token)))).toBeNull();
  });

  it("a refresh and a token's new grant that cross keep both: neither writes over what the other wrote since its read", async () => {
    const { memory, kv, afterNextRead } = sessionReadsInterleaved();
    const sessions = new Sessions(kv, () => 1_000);
    const made = await sessions.createAccessToken(user, 'script', 60 * 60_000, {});
    const stored = async () => JSON.parse((await memory.get(sessionKey(hashToken(made.token))))!) as Record<string, unknown>;

    // The token is made read-only after the refresh read its record.
    afterNextRead(() => sessions.amendToken(user.id, made.session.id, async () => ({ name: 'script', grant: { readOnly: true } })));
    await sessions.refresh({ ...user, displayName: 'Ada L.' });
    expect(await stored()).toMatchObject({ readOnly: true, displayName: 'Ada L.' });

    // The user is renamed after the grant's change read the record.
    afterNextRead(() => sessions.refresh({ ...user, displayName: 'Ada Lovelace' }));
    await sessions.amendToken(user.id, made.session.id, async () => ({ name: 'script', grant: { readOnly: true, projectIds: ['p1'] } }));
    expect(await stored()).toMatchObject({ readOnly: true, projectIds: ['p1'], displayName: 'Ada Lovelace' });
  });

  it("a change of what a token may do keeps a rename made meanwhile", async () => {
    const { kv, afterNextRead } = sessionReadsInterleaved();
    const sessions = new Sessions(kv, () => 1_000);
    const made = await sessions.createAccessToken(user, 'script', 60 * 60_000, {});
    afterNextRead(() => sessions.amendToken(user.id, made.session.id, async ({ readOnly, projectIds }) => ({ name: 'nightly export', grant: { readOnly, ...(projectIds ? { projectIds } : {}) } })));
    await sessions.amendToken(user.id, made.session.id, async ({ name }) => ({ name, grant: { readOnly: true } }));
    expect((await sessions.list(user.id, 'token')).map(({ name, readOnly }) => ({ name, readOnly }))).toEqual([{ name: 'nightly export', readOnly: true }]);
  });
});
