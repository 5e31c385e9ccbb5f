import { requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { invitationTokenParams, linkedInvitationSchema } from '../invitations/invitation-schemas';
import { inviterName } from '../invitations/inviter-name';
import { joinByInvitation } from '../invitations/join-by-invitation';
import { memberSchema } from '../projects/project-schemas';

const tags = ['identity'];
const notFound = 'An unknown, answered, withdrawn, replaced or lapsed link is 404 `IDENTITY_INVITATION_NOT_FOUND` (the same answer for each).';

/**
 * Email invitations, answered through the link they mailed. Any signed-in account may answer:
 * holding the link is the proof, so the invited address need not have an account beforehand.
 */
export function registerInvitationLinkRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The link's pending invitation and its project, else 404. One to a deleted (restorable) project
   * cannot be answered and stays as it is, for a restore to bring back.
   */
  async function answerableLink(token: string) {
    const invitation = await deps.emailInvitations.findByToken(token);
    const project = invitation && (await deps.projects.find(invitation.projectId));
    if (!invitation || !project) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
    return { invitation, project };
  }

  routes.get(
    '/api/invitations/:token',
    {
      preHandler: userGuard,
      schema: { tags, summary: "What an invitation link is for: the project's name and the inviter's", description: notFound, params: invitationTokenParams, response: { 200: linkedInvitationSchema } },
    },
    async (request) => {
      const { invitation, project } = await answerableLink(request.params.token);
      return { projectName: project.name, inviterName: await inviterName(deps, invitation.invitedBy) };
    },
  );

  routes.post(
    '/api/invitations/:token/accept',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Accept an invitation link: the caller becomes a member of the project',
        description: `Answers the new membership; the link stops working. A caller who is already a member gets 409 \`IDENTITY_ALREADY_MEMBER\` and the link keeps working. ${notFound}`,
        params: invitationTokenParams,
        response: { 200: memberSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const { invitation: pending } = await answerableLink(request.params.token);
      if (await deps.projects.findMember(pending.projectId, userId)) throw identityError('IDENTITY_ALREADY_MEMBER');
      const invitation = await deps.emailInvitations.take(request.params.token);
      if (!invitation) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
      return joinByInvitation(deps, invitation, userId);
    },
  );

  routes.post(
    '/api/invitations/:token/decline',
    { preHandler: userGuard, schema: { tags, summary: 'Decline an invitation link; the link stops working', description: notFound, params: invitationTokenParams, response: { 204: z.undefined().describe('Declined') } } },
    async (request, reply) => {
      await answerableLink(request.params.token);
      if (!(await deps.emailInvitations.take(request.params.token))) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
      return reply.code(204).send();
    },
  );
}
