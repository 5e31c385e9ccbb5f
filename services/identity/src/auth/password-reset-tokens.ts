import { randomBytes } from 'node:crypto';
import { hashToken } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { withSessionStore } from './session-store-availability';

/** How long a link to choose a new password works. */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const tokenKey = (token: string) => `password-reset:${hashToken(token)}`;
/** The user's one pending token (its key), so a new request retires the link of the one before. */
const userKey = (userId: string) => `password-reset-user:${userId}`;

/**
 * Tokens of the links that let someone who forgot their password choose a new one: 256 random
 * bits, stored only as their SHA-256 (like sessions) in the KeyValue store, so every identity
 * replica can redeem them; single use, an hour long, and only the newest of a user's links works.
 */
export class PasswordResetTokens {
  constructor(private readonly kv: KeyValue) {}

  async issue(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const key = tokenKey(token);
    await withSessionStore(async () => {
      const previous = await this.kv.get(userKey(userId));
      if (previous) await this.kv.delete(previous);
      await this.kv.set(key, userId, { ttlMs: PASSWORD_RESET_TTL_MS });
      await this.kv.set(userKey(userId), key, { ttlMs: PASSWORD_RESET_TTL_MS });
    });
    return token;
  }

  /** The user the token was issued for, once: of concurrent redemptions only one gets it; null when unknown, used or expired. */
  async consume(token: string): Promise<string | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const key = tokenKey(token);
    return withSessionStore(async () => {
      const userId = await this.kv.get(key);
      if (!userId || !(await this.kv.delete(key))) return null;
      await this.kv.delete(userKey(userId));
      return userId;
    });
  }
}
