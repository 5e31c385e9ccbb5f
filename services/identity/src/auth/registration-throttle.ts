import { addressLimitKey } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import { identityError } from '../errors';
import { FixedWindowLimit } from './fixed-window-limit';

/**
 * Limits registrations per client address in fixed windows, counted like sign-in attempts: one
 * atomic increment before anything is created decides. Every attempt counts, so probing which
 * emails are taken (409) is limited too. An IPv6 client is counted by its /64 (addressLimitKey).
 */
export class RegistrationThrottle {
  private readonly window: FixedWindowLimit;

  constructor(
    kv: KeyValue,
    private readonly limit: { perIp: number; windowMs: number },
  ) {
    this.window = new FixedWindowLimit(kv, limit.windowMs);
  }

  /** Counts the attempt; throws 429 when the address is over its limit. */
  async takeAttempt(ip: string): Promise<void> {
    if (!(await this.window.take([{ key: `registrations:ip:${addressLimitKey(ip)}`, limit: this.limit.perIp }]))) {
      throw identityError('IDENTITY_TOO_MANY_REGISTRATIONS', { details: { retryAfterSeconds: this.window.retryAfterSeconds } });
    }
  }
}
