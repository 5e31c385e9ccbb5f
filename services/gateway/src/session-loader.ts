import { sessionKey, sessionRecordSchema, type SessionRecord } from '@platform/contracts';
import { hashToken } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { LRUCache } from 'lru-cache';

export type SessionLookup =
  | { status: 'found'; session: SessionRecord; fromCache: boolean; tokenHash: string }
  | { status: 'none' }
  | { status: 'store-unavailable' };

/**
 * Loads sessions from the KeyValue store on every request (so a logout takes effect at once) and
 * keeps the last answer per token in a bounded local cache. When the store cannot be reached, a
 * cached session is used until its own absolute expiry (the spec's "locally cached session").
 * The cache also spares the schema check of a record that has not changed since the last request.
 */
export class SessionLoader {
  private readonly cache: LRUCache<string, { raw: string; session: SessionRecord }>;

  constructor(
    private readonly kv: KeyValue,
    private readonly clock: () => number,
    maxCached = 50_000,
  ) {
    this.cache = new LRUCache({ max: maxCached });
  }

  load(token: string): Promise<SessionLookup> {
    return this.loadByHash(hashToken(token));
  }

  /** The same lookup by the token's SHA-256, the key the session is stored under (realtime tokens carry it). */
  async loadByHash(tokenHash: string): Promise<SessionLookup> {
    let raw: string | null;
    try {
      raw = await this.kv.get(sessionKey(tokenHash));
    } catch {
      return this.fromCache(tokenHash);
    }
    if (raw !== null) {
      const cached = this.cache.get(tokenHash);
      const session = cached?.raw === raw ? cached.session : this.parse(raw);
      if (session && session.expiresAt > this.clock()) {
        // Unchanged, the entry stays as it is (get has made it the most recent): a new entry per
        // request would be an object that outlives the request, promoted by the young collector.
        if (cached?.session !== session) this.cache.set(tokenHash, { raw, session });
        return { status: 'found', session, fromCache: false, tokenHash };
      }
    }
    this.cache.delete(tokenHash);
    return { status: 'none' };
  }

  private fromCache(tokenHash: string): SessionLookup {
    const cached = this.cache.get(tokenHash)?.session;
    if (!cached) return { status: 'store-unavailable' };
    if (cached.expiresAt <= this.clock()) {
      this.cache.delete(tokenHash);
      return { status: 'none' };
    }
    return { status: 'found', session: cached, fromCache: true, tokenHash };
  }

  private parse(raw: string): SessionRecord | null {
    try {
      const parsed = sessionRecordSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
