import { createHash } from 'node:crypto';
import type { KeyValue } from '@platform/kv';
import { identityError } from '../errors';
import { withSessionStore } from './session-store-availability';

export interface ThrottleLimits {
  /** Failed sign-ins allowed per account within the window. */
  perAccount: number;
  /** Failed sign-ins allowed per client IP within the window. */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = { perAccount: 5, perIp: 20, windowMs: 15 * 60 * 1000 };

/**
 * Counts failed sign-ins per account and per IP in fixed windows in the KeyValue store (shared by
 * identity replicas). Once either count reaches its limit, sign-in answers 429 with Retry-After
 * before any password is checked, whether or not the password would be right.
 */
export class LoginThrottle {
  constructor(
    private readonly kv: KeyValue,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
  ) {}

  private keys(email: string, ip: string) {
    const account = createHash('sha256').update(email).digest('hex');
    return { account: `login-failures:account:${account}`, ip: `login-failures:ip:${ip}` };
  }

  async assertAllowed(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const [account, byIp] = await withSessionStore(() => Promise.all([this.kv.get(keys.account), this.kv.get(keys.ip)]));
    if (Number(account ?? 0) >= this.limits.perAccount || Number(byIp ?? 0) >= this.limits.perIp) {
      throw identityError('IDENTITY_TOO_MANY_ATTEMPTS', { details: { retryAfterSeconds: Math.ceil(this.limits.windowMs / 1000) } });
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    await withSessionStore(() =>
      Promise.all([this.kv.increment(keys.account, { ttlMs: this.limits.windowMs }), this.kv.increment(keys.ip, { ttlMs: this.limits.windowMs })]),
    );
  }

  /** A successful sign-in clears the account's count (not the IP's). */
  async recordSuccess(email: string, ip: string): Promise<void> {
    await withSessionStore(() => this.kv.delete(this.keys(email, ip).account));
  }
}
