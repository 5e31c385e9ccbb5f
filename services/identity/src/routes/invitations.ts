import { requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { acceptedMembershipSchema, invitationIdParams, receivedInvitationSchema, type Invitation } from '../invitations/invitation-schemas';
import { inviterName } from '../invitations/inviter-name';
import { joinByInvitation } from '../invitations/join-by-invitation';

const tags = ['identity'];

/**
 * The signed-in user's invitations to projects and tenants. Nobody becomes a member (and so
 * nobody sees the user's `projects`-level profile fields) without accepting here.
 */
export function registerInvitationRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** The name of what the invitation is for, or null when that is gone. */
  async function nameOf(invitation: Invitation): Promise<string | null> {
    const target = invitation.kind === 'project' ? await deps.projects.find(invitation.projectId) : await deps.tenants.find(invitation.tenantId);
    return target?.name ?? null;
  }

  /**
   * 404 for an invitation the caller cannot answer, before it is taken: one to a project that is
   * deleted (restorable) stays, unlisted, so a restore brings it back as it was.
   */
  async function requireAnswerable(userId: string, invitationId: string): Promise<void> {
    const pending = await deps.invitations.pendingById(userId, invitationId);
    if (!pending || (await nameOf(pending)) === null) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
  }

  routes.get(
    '/api/me/invitations',
    { preHandler: userGuard, schema: { tags, summary: "The caller's pending invitations to projects and tenants, newest first", response: { 200: z.object({ items: z.array(receivedInvitationSchema) }) } } },
    async (request) => {
      const pending = await deps.invitations.pendingOf(requireUser(request).userId);
      const named = await Promise.all(pending.map(async (invitation) => ({ invitation, name: await nameOf(invitation), inviter: await inviterName(deps, invitation.invitedBy) })));
      return { items: named.filter(({ name }) => name !== null).map(({ invitation, name, inviter }) => ({ ...invitation, name: name!, inviterName: inviter })) };
    },
  );

  routes.post(
    '/api/me/invitations/:invitationId/accept',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Accept an invitation: become a member of the project or tenant',
        description: 'Answers the new membership. An invitation that is not the caller\'s, was answered, withdrawn or has lapsed is 404.',
        params: invitationIdParams,
        response: { 200: acceptedMembershipSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      await requireAnswerable(userId, request.params.invitationId);
      const invitation = await deps.invitations.take(userId, request.params.invitationId);
      if (!invitation) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
      return joinByInvitation(deps, invitation, userId);
    },
  );

  routes.post(
    '/api/me/invitations/:invitationId/decline',
    { preHandler: userGuard, schema: { tags, summary: 'Decline an invitation', params: invitationIdParams, response: { 204: z.undefined().describe('Declined') } } },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await requireAnswerable(userId, request.params.invitationId);
      if (!(await deps.invitations.take(userId, request.params.invitationId))) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
      return reply.code(204).send();
    },
  );
}
