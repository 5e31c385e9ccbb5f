import type { KeyValue } from '@platform/kv';
import { FixedWindowLimit } from '../auth/fixed-window-limit';
import { identityError } from '../errors';

const HOUR_MS = 60 * 60_000;

/**
 * Limits invitation mails per project (or tenant) and per inviter in fixed one-hour windows, so
 * inviting (or renewing one invitation over and over) cannot be used to send spam. An invitation
 * by email is counted before anything is stored or sent: a refused one changes nothing. The notice
 * of an invitation by user id is skipped past the limit (the invitation still waits in the console).
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
    if (!(await this.tryTakeMail({ kind: 'project', id: projectId }, inviterId))) {
      throw identityError('IDENTITY_TOO_MANY_INVITATIONS', { details: { retryAfterSeconds: this.window.retryAfterSeconds } });
    }
  }

  /** Counts one mail of an invitation to a project or tenant; false when either count is over its limit. */
  tryTakeMail(to: { kind: 'project' | 'tenant'; id: string }, inviterId: string): Promise<boolean> {
    return this.window.take([
      { key: `invitation-mails:${to.kind}:${to.id}`, limit: this.limit.perHour },
      { key: `invitation-mails:user:${inviterId}`, limit: this.limit.perHour },
    ]);
  }
}
