import type { KeyValue } from '@platform/kv';
import { FixedWindowLimit } from '../auth/fixed-window-limit';
import { identityError } from '../errors';

const HOUR_MS = 60 * 60_000;

/**
 * Limits invitation mails per project and per inviter in fixed one-hour windows, so inviting by
 * email (or renewing one address's invitation over and over) cannot be used to send spam. Counted
 * before anything is stored or sent: a refused invitation changes nothing.
 */
export class InvitationMailThrottle {
  private readonly window: FixedWindowLimit;

  constructor(
    kv: KeyValue,
    private readonly limit: { perHour: number },
  ) {
    this.window = new FixedWindowLimit(kv, HOUR_MS);
  }

  /** Counts one mail; throws 429 when the project or the inviter is over its limit. */
  async takeMail(projectId: string, inviterId: string): Promise<void> {
    const limits = [
      { key: `invitation-mails:project:${projectId}`, limit: this.limit.perHour },
      { key: `invitation-mails:user:${inviterId}`, limit: this.limit.perHour },
    ];
    if (!(await this.window.take(limits))) throw identityError('IDENTITY_TOO_MANY_INVITATIONS', { details: { retryAfterSeconds: this.window.retryAfterSeconds } });
  }
}
