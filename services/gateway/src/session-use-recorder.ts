import { SESSION_USE_RESOLUTION_MS, sessionUsedKey, type SessionRecord } from '@platform/contracts';
import type { KeyValue } from '@platform/kv';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';

/**
 * Notes in the KeyValue store when a session was last used, for its owner's list of sessions and
 * access tokens (identity reads it). At most one write per session every SESSION_USE_RESOLUTION_MS
 * in this process, after the answer's work has started: a request never waits for it, and a
 * failed write only leaves "last used" older.
 */
export class SessionUseRecorder {
  /** When this process last wrote each session's use, by token hash. */
  private readonly written: LRUCache<string, number>;

  constructor(
    private readonly kv: KeyValue,
    private readonly clock: () => number,
    private readonly log: FastifyBaseLogger,
    maxTracked = 50_000,
  ) {
    this.written = new LRUCache({ max: maxTracked });
  }

  record(tokenHash: string, session: SessionRecord): void {
    const now = this.clock();
    const last = this.written.get(tokenHash);
    if (last !== undefined && now - last < SESSION_USE_RESOLUTION_MS) return;
    const ttlMs = session.expiresAt - now;
    if (ttlMs <= 0) return;
    this.written.set(tokenHash, now);
    this.kv.set(sessionUsedKey(tokenHash), String(now), { ttlMs }).catch((error: unknown) => {
      this.written.delete(tokenHash);
      this.log.debug({ err: error }, 'session use not recorded');
    });
  }
}
