import { traceLogFields, type TraceContext } from '@platform/telemetry';
import type { FastifyBaseLogger } from 'fastify';
import type { IdentityDeps } from '../identity-deps';
import { inviterName } from './inviter-name';

/**
 * Mails the invited user that an invitation waits for them in the console, after the answer and
 * only if the user id is an account's: the invitation's answer stays the same whether or not it
 * is (the route does not tell which user ids exist). Past the invitation mail limits, or when the
 * mail fails, nothing is sent: the invitation still shows on the console's projects screen.
 */
export function noticeInvitee(
  deps: IdentityDeps,
  invitation: { userId: string; invitedBy: string; to: { kind: 'project' | 'tenant'; id: string; name: string } },
  log: FastifyBaseLogger,
  traceContext: TraceContext | undefined,
): void {
  void (async () => {
    try {
      const invitee = await deps.users.findById(invitation.userId);
      if (!invitee || !(await deps.invitationMails.tryTakeMail(invitation.to, invitation.invitedBy))) return;
      const inviter = await inviterName(deps, invitation.invitedBy);
      const { kind, name } = invitation.to;
      await deps.mailer.send(
        {
          to: invitee.email,
          subject: `${inviter} invited you to ${name}`,
          text: `${inviter} invited you to the ${kind} "${name}".\n\nSign in at ${deps.publicUrl()}/console/projects to accept or decline it. The invitation lapses in 14 days.`,
        },
        { traceContext },
      );
    } catch (error) {
      log.error({ ...traceLogFields(traceContext), err: error }, 'invitation notice could not be sent');
    }
  })();
}
