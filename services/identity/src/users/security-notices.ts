import { traceLogFields, type TraceContext } from '@platform/telemetry';
import type { IdentityDeps } from '../identity-deps';

/** The account changes its owner is told about by mail, in case someone else made them. */
export type AccountChange =
  | 'password-changed'
  | 'two-factor-on'
  | 'two-factor-off'
  | 'recovery-codes-renewed'
  | { accessTokenMade: string }
  | { signedInFrom: { device: string; address: string | undefined } }
  | 'account-deleted';

function describe(change: AccountChange): { subject: string; what: string } {
  if (typeof change === 'object' && 'accessTokenMade' in change) return { subject: 'A new access token for your account', what: `an access token named "${change.accessTokenMade}" was made; it acts as you until it expires or is revoked` };
  if (typeof change === 'object') {
    const { device, address } = change.signedInFrom;
    return { subject: 'A new sign-in to your account', what: `someone signed in to your account from ${device}${address ? ` (address ${address})` : ''}, a device none of your sessions was opened from` };
  }
  switch (change) {
    case 'password-changed':
      return { subject: 'Your password was changed', what: 'your password was changed, and your other devices were signed out' };
    case 'two-factor-on':
      return { subject: 'Two-step sign-in is on', what: 'two-step sign-in was turned on: signing in now asks for a code from an authenticator app' };
    case 'two-factor-off':
      return { subject: 'Two-step sign-in is off', what: 'two-step sign-in was turned off: your password alone signs you in' };
    case 'recovery-codes-renewed':
      return { subject: 'New recovery codes', what: 'new recovery codes were made; the earlier ones no longer work' };
    case 'account-deleted':
      return { subject: 'Your account was deleted', what: 'your account was deleted, with the projects that went with it' };
  }
}

/**
 * Tells the account's owner by mail that something about the account changed, so a change made by
 * someone else (a session left open, a leaked password) does not go unnoticed. Best effort: sent
 * after the answer, a mail that fails is logged and changes nothing.
 */
export function noticeAccountChange(deps: Pick<IdentityDeps, 'mailer' | 'logger' | 'publicUrl'>, user: { email: string; displayName: string }, change: AccountChange, traceContext: TraceContext | undefined): void {
  const { subject, what } = describe(change);
  const text = [
    `Hello ${user.displayName},`,
    '',
    `${what[0]!.toUpperCase()}${what.slice(1)} at ${deps.publicUrl()}.`,
    '',
    change === 'account-deleted'
      ? 'If you did not do this, tell the platform\'s operator at once.'
      : 'If this was you, there is nothing to do. If it was not, choose a new password from the sign-in page at once, and look at where you are signed in on your account screen.',
  ].join('\n');
  deps.mailer.send({ to: user.email, subject, text }, { traceContext }).catch((error: unknown) => deps.logger.warn({ ...traceLogFields(traceContext), err: error, subject }, 'account notice could not be sent'));
}
