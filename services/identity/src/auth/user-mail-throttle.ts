import type { KeyValue } from '@platform/kv';
import { identityError } from '../errors';
import { FixedWindowLimit } from './fixed-window-limit';

const PER_HOUR = 5;

/**
 * Limits the mails one user asks identity to send (email changes, verification links again), so a
 * session cannot make identity mail an address without end: 5 an hour of each kind.
 */
export class UserMailThrottle {
  private readonly window: FixedWindowLimit;

  constructor(
    kv: KeyValue,
    private readonly kind: { key: string; error: 'IDENTITY_TOO_MANY_EMAIL_CHANGES' | 'IDENTITY_TOO_MANY_VERIFICATION_MAILS' },
  ) {
    this.window = new FixedWindowLimit(kv, 60 * 60 * 1000);
  }

  /** Counts the request; throws 429 past the limit. */
  async take(userId: string): Promise<void> {
    if (!(await this.window.take([{ key: `${this.kind.key}:user:${userId}`, limit: PER_HOUR }]))) {
      throw identityError(this.kind.error, { details: { retryAfterSeconds: this.window.retryAfterSeconds } });
    }
  }
}
