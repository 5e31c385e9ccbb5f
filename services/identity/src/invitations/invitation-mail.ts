import { traceLogFields, type TraceContext } from '@platform/telemetry';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';

/** The console page where a signed-in person accepts or declines the invitation the token opens. */
function invitationLink(deps: IdentityDeps, token: string): string {
  return `${deps.publicUrl()}/console/invitations/${token}`;
}

/**
 * Mails the invitation link; the text is the same whether or not an account has the address. A
 * mailer that fails (SMTP down or refusing) is 502 `IDENTITY_MAIL_FAILED`, its cause logged.
 */
export async function sendInvitationMail(
  deps: IdentityDeps,
  invitation: { to: string; token: string; projectName: string; inviterName: string },
  traceContext: TraceContext | undefined,
): Promise<void> {
  const link = invitationLink(deps, invitation.token);
  try {
    await deps.mailer.send({
      to: invitation.to,
      subject: `${invitation.inviterName} invited you to ${invitation.projectName}`,
      text: `${invitation.inviterName} invited you to the project "${invitation.projectName}".\n\nOpen this link, signed in (or after creating an account), to accept or decline: ${link}\n\nThe link works once and lapses in 14 days.`,
    }, { traceContext });
  } catch (error) {
    deps.logger.error({ ...traceLogFields(traceContext), err: error }, 'invitation mail could not be sent');
    throw identityError('IDENTITY_MAIL_FAILED');
  }
}
