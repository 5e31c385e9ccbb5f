import { addressLimitKey } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { identityError } from '../errors';
import { accountLimitKey } from './account-limit-key';
import { FixedWindowLimit } from './fixed-window-limit';

export interface PasswordResetLimits {
  /** Reset requests per client address (an IPv6 client: its /64) within the window; past it, 429. */
  perIp: number;
  /** Reset mails per account within the window; past it, no mail (the answer stays the same). */
  perAccount: number;
  windowMs: number;
}

export const DEFAULT_PASSWORD_RESET_LIMITS: PasswordResetLimits = { perIp: 10, perAccount: 3, windowMs: 60 * 60 * 1000 };

/**
 * Limits password reset requests: per client address (so nobody sends the mail to many accounts
 * from one place) and per account (so nobody fills one inbox). Only the address limit is said to
 * the caller; the account limit would tell that the account exists.
 */
export class PasswordResetThrottle {
  private readonly window: FixedWindowLimit;

  constructor(
    kv: KeyValue,
    private readonly limits: PasswordResetLimits = DEFAULT_PASSWORD_RESET_LIMITS,
  ) {
    this.window = new FixedWindowLimit(kv, limits.windowMs);
  }

  /** Counts the request; throws 429 when the address is over its limit. */
  async takeRequest(ip: string): Promise<void> {
    if (!(await this.window.take([{ key: `password-resets:ip:${addressLimitKey(ip)}`, limit: this.limits.perIp }]))) {
      throw identityError('IDENTITY_TOO_MANY_PASSWORD_RESETS', { details: { retryAfterSeconds: this.window.retryAfterSeconds } });
    }
  }

  /** Counts a mail to the account; false when it has had its share this window. */
  takeMail(email: string): Promise<boolean> {
    return this.window.take([{ key: `password-resets:account:${accountLimitKey(email)}`, limit: this.limits.perAccount }]);
  }
}
