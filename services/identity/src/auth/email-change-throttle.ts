import type { KeyValue } from '@platform/kv';
import { identityError } from '../errors';
import { FixedWindowLimit } from './fixed-window-limit';

const PER_HOUR = 5;

/** Limits email-change requests per user, so a session cannot make identity mail any address without end. */
export class EmailChangeThrottle {
  private readonly window: FixedWindowLimit;

  constructor(kv: KeyValue) {
    this.window = new FixedWindowLimit(kv, 60 * 60 * 1000);
  }

  /** Counts the request; throws 429 past the limit. */
  async take(userId: string): Promise<void> {
    if (!(await this.window.take([{ key: `email-changes:user:${userId}`, limit: PER_HOUR }]))) {
      throw identityError('IDENTITY_TOO_MANY_EMAIL_CHANGES', { details: { retryAfterSeconds: this.window.retryAfterSeconds } });
    }
  }
}
