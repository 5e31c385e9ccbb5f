import { sessionKey, type SessionRecord } from '@platform/contracts';
import type { Clock } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { userSessionsKey } from './sessions';

/** Where versions before 2026-12-07 indexed a user's sessions: a key per session, `user-session:<userId>:<token hash>`. */
const LEGACY_PREFIX = 'user-session:';

/** Set once the legacy index has been moved: later starts read this one key and scan nothing. */
const MOVED_KEY = 'migrations:user-sessions-map';

/**
 * Moves the session index of versions before 2026-12-07 into each user's map of sessions, once per
 * store. That index was a key per session, which every sign-in, sign-out and session list found by
 * scanning the whole key space (on Redis, one SCAN round trip per 1,000 keys of every kind). A
 * session whose record has ended meanwhile is dropped; the others keep their expiry. Safe to run in
 * several processes at once: each move writes the same field. Answers how many sessions moved.
 */
export async function moveLegacySessionIndex(kv: KeyValue, clock: Clock): Promise<number> {
  if (await kv.get(MOVED_KEY)) return 0;
  let moved = 0;
  for (const { key, value } of await kv.scan(LEGACY_PREFIX)) {
    // A token's hash holds no colon; a user id may.
    const rest = key.slice(LEGACY_PREFIX.length);
    const userId = rest.slice(0, rest.lastIndexOf(':'));
    const tokenHash = rest.slice(rest.lastIndexOf(':') + 1);
    const raw = await kv.get(sessionKey(tokenHash));
    const ttlMs = raw ? (JSON.parse(raw) as SessionRecord).expiresAt - clock() : 0;
    if (ttlMs > 0 && (await kv.setField(userSessionsKey(userId), tokenHash, value, { ttlMs }))) moved += 1;
    await kv.delete(key);
  }
  await kv.set(MOVED_KEY, String(clock()));
  return moved;
}
