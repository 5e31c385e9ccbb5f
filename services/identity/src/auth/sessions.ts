import { randomBytes, randomUUID } from 'node:crypto';
import type { EventBus } from '@platform/bus';
import { SESSION_ENDED_SUBJECT, sessionKey, type SessionEndedNotice, type SessionRecord } from '@platform/contracts';
import { hashSessionToken, type Clock } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import type { StoredUser } from '../users/user-record';
import { withSessionStore } from './session-store-availability';

/** Sessions last 30 days from creation; using them does not extend them. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Index of a user's sessions, so changes to the user (promotion, name) reach every session. */
const userSessionKey = (userId: string, tokenHash = '') => `user-session:${userId}:${tokenHash}`;

function sessionFields(user: StoredUser): Pick<SessionRecord, 'userId' | 'platformOwner' | 'displayName' | 'language'> {
  return { userId: user.id, platformOwner: user.platformOwner, displayName: user.displayName, ...(user.language ? { language: user.language } : {}) };
}

/**
 * Server-side sessions in the KeyValue port. The client holds a random 256-bit token; the store
 * holds only its SHA-256, under which the gateway finds the session on every request.
 */
export class Sessions {
  constructor(
    private readonly kv: KeyValue,
    private readonly clock: Clock,
    /** Where ended sessions are announced (gateways close their realtime streams); none in tools. */
    private readonly bus?: EventBus,
  ) {}

  /** A new session for `userId`; 503 when the session store cannot be reached. */
  async create(user: StoredUser): Promise<{ token: string; session: SessionRecord }> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashSessionToken(token);
    const now = this.clock();
    const session: SessionRecord = { id: randomUUID(), createdAt: now, expiresAt: now + SESSION_LIFETIME_MS, ...sessionFields(user) };
    await withSessionStore(async () => {
      await this.kv.set(userSessionKey(user.id, tokenHash), session.id, { ttlMs: SESSION_LIFETIME_MS });
      await this.kv.set(sessionKey(tokenHash), JSON.stringify(session), { ttlMs: SESSION_LIFETIME_MS });
    });
    return { token, session };
  }

  /** Ends the session of `token`, if any. */
  async revoke(token: string): Promise<void> {
    const tokenHash = hashSessionToken(token);
    await withSessionStore(async () => {
      const raw = await this.kv.get(sessionKey(tokenHash));
      await this.kv.delete(sessionKey(tokenHash));
      if (raw) await this.kv.delete(userSessionKey((JSON.parse(raw) as SessionRecord).userId, tokenHash));
    });
    await this.announceEnded([tokenHash]);
  }

  /**
   * Ends the session `sessionId` of `userId`, if it still exists. Logout goes by the session the
   * gateway signed into the principal: the gateway forwards no session token to services.
   */
  async revokeById(userId: string, sessionId: string): Promise<void> {
    await this.revokeWhere(userId, (id) => id === sessionId);
  }

  /**
   * Ends every session of `userId` but `keep` (the caller's own, after a password change); answers
   * how many ended. Their realtime streams close as on sign-out.
   */
  revokeAll(userId: string, keep?: string): Promise<number> {
    return this.revokeWhere(userId, (id) => id !== keep);
  }

  private async revokeWhere(userId: string, ends: (sessionId: string) => boolean): Promise<number> {
    const ended: string[] = [];
    await withSessionStore(async () => {
      for (const { key, value } of await this.kv.scan(userSessionKey(userId))) {
        if (!ends(value)) continue;
        const tokenHash = key.slice(userSessionKey(userId).length);
        await this.kv.delete(sessionKey(tokenHash));
        await this.kv.delete(key);
        ended.push(tokenHash);
      }
    });
    await this.announceEnded(ended);
    return ended.length;
  }

  /**
   * Best effort: a gateway that misses the notice (bus down) still closes the session's streams at
   * its next periodic check of the session store.
   */
  private async announceEnded(tokenHashes: string[]): Promise<void> {
    if (!this.bus || tokenHashes.length === 0) return;
    const notice: SessionEndedNotice = { tokenHashes };
    await this.bus.broadcast(SESSION_ENDED_SUBJECT, notice).catch(() => undefined);
  }

  /** Rewrites the user's live sessions with its current standing, keeping each one's expiry. */
  async refresh(user: StoredUser): Promise<void> {
    const now = this.clock();
    for (const { key } of await this.kv.scan(userSessionKey(user.id))) {
      const tokenHash = key.slice(userSessionKey(user.id).length);
      const raw = await this.kv.get(sessionKey(tokenHash));
      if (!raw) continue;
      const session = { ...(JSON.parse(raw) as SessionRecord), ...sessionFields(user) };
      if (session.expiresAt > now) await this.kv.set(sessionKey(tokenHash), JSON.stringify(session), { ttlMs: session.expiresAt - now });
    }
  }
}
