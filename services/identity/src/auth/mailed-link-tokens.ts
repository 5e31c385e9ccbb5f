import { randomBytes } from 'node:crypto';
import { hashToken } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { withSessionStore } from './session-store-availability';

/** What a kind of mailed link is called in the store, and how long one works. */
export interface MailedLinkKind {
  /** The key prefix (`password-reset`): tokens under `<name>:<sha256>`, a user's newest under `<name>-user:<userId>`. */
  name: string;
  ttlMs: number;
  /** Whose link a token's value is (for a value that is not the user id itself). */
  userOf?: (value: string) => string;
}

/** A link whose token carries a JSON claim naming its user. */
const claimedUser = (value: string): string => (JSON.parse(value) as { userId: string }).userId;

/** Links to choose a new password: an hour. */
export const PASSWORD_RESET_LINKS: MailedLinkKind = { name: 'password-reset', ttlMs: 60 * 60 * 1000 };
/** Links in the welcome mail (and sent again on request) that confirm the account's address: a week. */
export const EMAIL_VERIFICATION_LINKS: MailedLinkKind = { name: 'email-verification', ttlMs: 7 * 24 * 60 * 60 * 1000, userOf: claimedUser };
/** Links that confirm a new email address: a day. */
export const EMAIL_CHANGE_LINKS: MailedLinkKind = { name: 'email-change', ttlMs: 24 * 60 * 60 * 1000, userOf: claimedUser };

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Tokens of the links identity mails to prove someone reads a mailbox: 256 random bits, stored
 * only as their SHA-256 (like sessions) in the KeyValue store, so every identity replica can
 * redeem them; single use, `ttlMs` long, and only the newest of a user's links of a kind works:
 * the user's pointer names it, and a token works only while the pointer names it (of two links
 * issued at once, both stored, the pointer's last writer is the one that works). Each token
 * carries a value (the user id, or what the link confirms).
 */
export class MailedLinkTokens {
  constructor(
    private readonly kv: KeyValue,
    private readonly kind: MailedLinkKind,
  ) {}

  private tokenKey(token: string): string {
    return `${this.kind.name}:${hashToken(token)}`;
  }

  /** The user's one pending token (its key), so a new link retires the one before. */
  private userKey(userId: string): string {
    return `${this.kind.name}-user:${userId}`;
  }

  async issue(userId: string, value: string = userId): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const key = this.tokenKey(token);
    const { ttlMs } = this.kind;
    await withSessionStore(async () => {
      const previous = await this.kv.get(this.userKey(userId));
      if (previous) await this.kv.delete(previous);
      await this.kv.set(key, value, { ttlMs });
      await this.kv.set(this.userKey(userId), key, { ttlMs });
    });
    return token;
  }

  /** Retires the user's pending link of this kind, if any: the credentials it was sent under changed. */
  async retire(userId: string): Promise<void> {
    await withSessionStore(async () => {
      const pending = await this.kv.get(this.userKey(userId));
      if (pending) await this.kv.delete(pending);
      await this.kv.delete(this.userKey(userId));
    });
  }

  /** The token's value without using it up (a reset checks the second factor first); null when unknown, expired or replaced. */
  async peek(token: string): Promise<string | null> {
    return withSessionStore(async () => (await this.newest(token))?.value ?? null);
  }

  /** The token's value, once: of concurrent redemptions only one gets it; null when unknown, used, expired or replaced. */
  async consume(token: string): Promise<string | null> {
    return withSessionStore(async () => {
      const newest = await this.newest(token);
      // The user's pointer stays: it names a token that is gone, and the next link replaces it.
      return newest && (await this.kv.delete(newest.key)) ? newest.value : null;
    });
  }

  /** The token's key and value while it is its user's newest link of this kind. */
  private async newest(token: string): Promise<{ key: string; value: string } | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const key = this.tokenKey(token);
    const value = await this.kv.get(key);
    if (!value) return null;
    const userOf = this.kind.userOf ?? ((userId: string) => userId);
    return (await this.kv.get(this.userKey(userOf(value)))) === key ? { key, value } : null;
  }
}
