import { addressLimitKey } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { loginThrottled } from '@platform/telemetry';
import { identityError } from '../errors';
import { accountLimitKey } from './account-limit-key';
import { FixedWindowLimit } from './fixed-window-limit';

export interface ThrottleLimits {
  /** Failed sign-ins allowed per account within the window. */
  perAccount: number;
  /** Failed sign-ins allowed per client address (an IPv6 client: its /64) within the window. */
  perIp: number;
  windowMs: number;
}

/**
 * Limits sign-in attempts per account and per IP in fixed windows. Every attempt is counted before
 * its password is checked; once either count passes its limit, sign-in answers 429 with
 * Retry-After without checking the password, whether or not it would be right. The address is
 * counted first, and an attempt its address may not make is not counted against the account it
 * names: otherwise one address past its own limit could go on locking out any account it liked.
 * A successful sign-in clears the account's count and gives its attempt back to the IP, so both
 * counts hold failures (and attempts still in flight).
 */
export class LoginThrottle {
  private readonly window: FixedWindowLimit;

  constructor(
    kv: KeyValue,
    private readonly limits: ThrottleLimits,
  ) {
    this.window = new FixedWindowLimit(kv, limits.windowMs);
  }

  private accountKey(email: string): string {
    return `login-failures:account:${accountLimitKey(email)}`;
  }

  private keys(email: string, ip: string) {
    return { account: this.accountKey(email), ip: `login-failures:ip:${addressLimitKey(ip)}` };
  }

  /** Counts the attempt; throws 429 when it is over either limit. */
  async takeAttempt(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    const allowed = (await this.window.take([{ key: keys.ip, limit: this.limits.perIp }])) && (await this.window.take([{ key: keys.account, limit: this.limits.perAccount }]));
    if (allowed) return;
    loginThrottled.inc();
    throw identityError('IDENTITY_TOO_MANY_ATTEMPTS', { details: { retryAfterSeconds: this.window.retryAfterSeconds } });
  }

  async recordSuccess(email: string, ip: string): Promise<void> {
    const keys = this.keys(email, ip);
    await Promise.all([this.window.clear(keys.account), this.window.giveBack(keys.ip)]);
  }

  /** Clears the account's failures without a sign-in (a password reset proved its owner). */
  async clearAccount(email: string): Promise<void> {
    await this.window.clear(this.accountKey(email));
  }
}
