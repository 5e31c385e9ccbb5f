import { traceLogFields, type TraceContext } from '@platform/telemetry';
import { EMAIL_CHANGE_LINKS } from '../auth/mailed-link-tokens';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';

/** Where the link leads: the console's page, the token in the fragment so no server or proxy log holds it. */
const CONFIRM_PAGE_PATH = '/console/confirm-email';

/** Mails the link that confirms a new address to that address; 502 when it cannot be sent. */
export async function mailEmailChangeLink(deps: IdentityDeps, link: { to: string; displayName: string; token: string }, traceContext: TraceContext | undefined): Promise<void> {
  const url = `${deps.publicUrl()}${CONFIRM_PAGE_PATH}#token=${link.token}`;
  const text = [
    `Hello ${link.displayName},`,
    '',
    `someone, hopefully you, asked to use this address for their account at ${deps.publicUrl()}.`,
    `Open this link within ${EMAIL_CHANGE_LINKS.ttlMs / 3_600_000} hours to confirm it:`,
    '',
    url,
    '',
    'If you did not ask for this, ignore this mail: nothing changes.',
  ].join('\n');
  try {
    await deps.mailer.send({ to: link.to, subject: 'Confirm your new email address', text }, { traceContext });
  } catch (error) {
    deps.logger.error({ ...traceLogFields(traceContext), err: error }, 'email change mail could not be sent');
    throw identityError('IDENTITY_MAIL_FAILED', { message: 'The mail could not be sent, so your email stays as it is; try again later' });
  }
}

/** Tells the old address that the account now uses another. */
export async function mailEmailChanged(deps: IdentityDeps, notice: { to: string; displayName: string; email: string }, traceContext: TraceContext | undefined): Promise<void> {
  const text = [
    `Hello ${notice.displayName},`,
    '',
    `your account at ${deps.publicUrl()} now uses the address ${notice.email}; sign in with it from now on.`,
    'If you did not change it, choose a new password from the sign-in page at once and tell the platform\'s operator.',
  ].join('\n');
  await deps.mailer.send({ to: notice.to, subject: 'Your email address was changed', text }, { traceContext });
}
