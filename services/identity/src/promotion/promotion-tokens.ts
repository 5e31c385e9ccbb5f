import { randomBytes } from 'node:crypto';
import type { KeyValue } from '@platform/kv';

const PREFIX = 'promotion-token:';
export const PROMOTION_TOKEN_TTL_MS = 10 * 60 * 1000;
const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Development owner-promotion tokens: random 256-bit, single use, 10 minutes, in the KeyValue
 * store so any identity replica can redeem them. Identity clears them all when it starts, so a
 * token from before a restart is invalid (the spec's "gone" state).
 */
export class PromotionTokens {
  constructor(private readonly kv: KeyValue) {}

  async issue(userId: string): Promise<string> {
    const token = randomBytes(32).toString('hex');
    await this.kv.set(PREFIX + token, userId, { ttlMs: PROMOTION_TOKEN_TTL_MS });
    return token;
  }

  /** The user a pending token was issued for, or null when unknown, expired or used. */
  async pendingUser(token: string): Promise<string | null> {
    return TOKEN_PATTERN.test(token) ? this.kv.get(PREFIX + token) : null;
  }

  /** Marks the token used; only one of several concurrent redemptions answers true. */
  async consume(token: string): Promise<boolean> {
    return this.kv.delete(PREFIX + token);
  }

  async clearAll(): Promise<void> {
    await Promise.all((await this.kv.scan(PREFIX)).map(({ key }) => this.kv.delete(key)));
  }
}
