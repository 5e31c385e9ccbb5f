import { scopePermission, type UserPrincipal } from '@platform/contracts';
import { projectNotFound, requestTraceContext, requireUser, rlsAllows, userGuard, type ProjectContext } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { newInvitationToken } from '../invitations/email-invitation-repository';
import { sendInvitationMail } from '../invitations/invitation-mail';
import { noticeInvitee } from '../invitations/invitee-notice';
import { invitationIdParams, pendingProjectInvitationSchema, type PendingProjectInvitation, type ProjectInvitation } from '../invitations/invitation-schemas';
import { addMemberBody, aiSettingsBody, createProjectBody, memberSchema, projectIdParams, projectSchema, renameProjectBody } from '../projects/project-schemas';
import { membershipChangeMessages, membershipEnded, membershipPut } from '../projects/membership-changes';
import { projectChangeMessages, projectSettingsChanged } from '../projects/project-changes';

const tags = ['projects'];

/** Projects, their members and invitations, and AI settings. Non-members get 404 for every project route. */
export function registerProjectRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  async function requireUpdate(projectId: string, principal: UserPrincipal): Promise<ProjectContext> {
    const context = await deps.access.require(projectId, principal);
    if (!rlsAllows(context.project.access, 'update', context.caller)) throw identityError('IDENTITY_FORBIDDEN');
    return context;
  }

  routes.post(
    '/api/projects',
    { preHandler: userGuard, schema: { tags, summary: 'Create a project; the caller becomes its owner', body: createProjectBody, response: { 201: projectSchema } } },
    async (request, reply) => {
      const caller = requireUser(request);
      const { tenantId, ...fields } = request.body;
      const tenant = tenantId === undefined ? await deps.tenants.personalTenant(await deps.users.require(caller.userId)) : await deps.tenants.find(tenantId);
      // Any member of a tenant may create projects in it; others cannot even learn it exists.
      if (!tenant || !(await deps.tenants.membership(tenant.id, caller.userId))) throw identityError('IDENTITY_TENANT_NOT_FOUND');
      const project = await deps.projects.create({ ...fields, ownerId: caller.userId, tenantId: tenant.id });
      await deps.outbox.publish(projectSettingsChanged('created', project, caller.userId, deps.clock()));
      return reply.code(201).send(project);
    },
  );

  routes.get(
    '/api/projects',
    { preHandler: userGuard, schema: { tags, summary: "The caller's projects: those it is a member of and all projects of tenants it administers", response: { 200: z.object({ items: z.array(projectSchema) }) } } },
    async (request) => {
      const { userId } = requireUser(request);
      return { items: await deps.projects.listForUser(userId, await deps.tenants.adminTenantIds(userId)) };
    },
  );

  routes.get(
    '/api/projects/:projectId',
    { preHandler: userGuard, schema: { tags, summary: 'One project', params: projectIdParams, response: { 200: projectSchema } } },
    async (request) => (await deps.access.require(request.params.projectId, requireUser(request))).project,
  );

  routes.patch(
    '/api/projects/:projectId',
    {
      preHandler: userGuard,
      schema: { tags, summary: 'Rename the project', description: "Needs the project's RLS update permission.", params: projectIdParams, body: renameProjectBody, response: { 200: projectSchema } },
    },
    async (request) => {
      const caller = requireUser(request);
      const { project } = await requireUpdate(request.params.projectId, caller);
      const renamed = await deps.projects.rename(project.id, request.body.name);
      if (!renamed) throw projectNotFound();
      // Every process caches the project record with the caller's standing.
      await deps.accessChanges.announce({ projectId: project.id });
      await deps.outbox.publish(projectChangeMessages('renamed', { after: renamed, before: project }, caller.userId, deps.clock()));
      return renamed;
    },
  );

  routes.get(
    '/api/projects/:projectId/members',
    { preHandler: userGuard, schema: { tags, summary: "The project's members", params: projectIdParams, response: { 200: z.object({ items: z.array(memberSchema) }) } } },
    async (request) => {
      const { project, caller } = await deps.access.require(request.params.projectId, requireUser(request));
      if (!rlsAllows(project.access, 'read', caller)) throw identityError('IDENTITY_FORBIDDEN', { message: 'You may not read this project' });
      return { items: await deps.projects.listMembers(project.id) };
    },
  );

  routes.post(
    '/api/projects/:projectId/members',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: "Invite a user (by id or email) to the project, or replace a member's permissions",
        description:
          "Needs the project's RLS update permission. Give exactly one of `userId` and `email`. A user id that is not a member yet gets a pending invitation (202) and becomes a member only by accepting it (`POST /api/me/invitations/{invitationId}/accept`); the answer is the same whether or not the user id exists. A member's permissions are replaced (200). An email address always gets a pending invitation (202, carrying `email`, the same whether or not an account has the address) and a mail with a one-time link, answered at `POST /api/invitations/{token}/accept` by any signed-in account; inviting the address again replaces the link and mails it again. Invitation mails are limited per project and per inviter (429 `IDENTITY_TOO_MANY_INVITATIONS`). A mail that cannot be sent is 502 `IDENTITY_MAIL_FAILED` and changes no invitation (an earlier link keeps working). Permission names are scoped `{projectId}::name`; a name scoped to another project is refused.",
        params: projectIdParams,
        body: addMemberBody,
        response: { 200: memberSchema, 202: pendingProjectInvitationSchema },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { project } = await requireUpdate(request.params.projectId, caller);
      const { email, permissions } = request.body;
      const foreign = permissions.find((permission) => permission.includes('::') && !permission.startsWith(`${project.id}::`));
      if (foreign) throw identityError('IDENTITY_INVALID_PERMISSION', { message: `Invalid permission ${foreign}: scoped to another project` });
      const scoped = [...new Set(permissions.map((permission) => scopePermission(project.id, permission)))];
      if (email !== undefined) {
        // Outside development without SMTP, mails go to the log: whoever reads it could accept the link and join with these permissions.
        if (deps.mailer.kind === 'log' && !deps.dev) throw identityError('IDENTITY_EMAIL_INVITATION_UNAVAILABLE');
        // Counted before anything is stored or sent, so a refused invitation changes nothing.
        await deps.invitationMails.takeMail(project.id, caller.userId);
        // Mailed before it is stored: a mail that fails leaves no new invitation and the earlier link working.
        const token = newInvitationToken();
        const inviter = await deps.users.require(caller.userId);
        await sendInvitationMail(deps, { to: email, token, projectName: project.name, inviterName: inviter.displayName }, requestTraceContext(request));
        return reply.code(202).send(await deps.emailInvitations.invite(project.id, email, caller.userId, scoped, token));
      }
      // The body schema requires exactly one of userId and email.
      const userId = request.body.userId!;
      if (userId === project.ownerId) throw identityError('IDENTITY_OWNER_MEMBERSHIP');
      // A member's permissions are replaced; anyone else (a member removed meanwhile too) is invited.
      const replaced = await deps.projects.replacePermissions(project.id, userId, permissions);
      if (replaced) {
        await deps.accessChanges.announce({ projectId: project.id });
        await deps.outbox.publish(membershipChangeMessages(membershipPut(replaced.member, replaced.previousPermissions, caller.userId), deps.clock));
        return reply.code(200).send(replaced.member);
      }
      const invitation = await deps.invitations.invite({ kind: 'project', projectId: project.id }, userId, caller.userId, { permissions: scoped });
      noticeInvitee(deps, { userId, invitedBy: caller.userId, to: { kind: 'project', id: project.id, name: project.name } }, request.log, requestTraceContext(request));
      return reply.code(202).send(invitation);
    },
  );

  routes.get(
    '/api/projects/:projectId/invitations',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: "The project's pending invitations, by user id and by email",
        description: "Needs the project's RLS update permission.",
        params: projectIdParams,
        response: { 200: z.object({ items: z.array(pendingProjectInvitationSchema) }) },
      },
    },
    async (request) => {
      const { project } = await requireUpdate(request.params.projectId, requireUser(request));
      const [byUserId, byEmail] = await Promise.all([deps.invitations.pendingFor({ kind: 'project', projectId: project.id }), deps.emailInvitations.pendingFor(project.id)]);
      const items: PendingProjectInvitation[] = [...(byUserId as ProjectInvitation[]), ...byEmail];
      return { items: items.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)) };
    },
  );

  routes.delete(
    '/api/projects/:projectId/invitations/:invitationId',
    {
      preHandler: userGuard,
      schema: { tags, summary: 'Withdraw a pending invitation', description: "Needs the project's RLS update permission.", params: projectIdParams.extend(invitationIdParams.shape), response: { 204: z.undefined().describe('Withdrawn') } },
    },
    async (request, reply) => {
      const { project } = await requireUpdate(request.params.projectId, requireUser(request));
      const { invitationId } = request.params;
      const withdrawn = (await deps.invitations.cancel({ kind: 'project', projectId: project.id }, invitationId)) || (await deps.emailInvitations.cancel(project.id, invitationId));
      if (!withdrawn) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
      return reply.code(204).send();
    },
  );

  routes.delete(
    '/api/projects/:projectId/members/:userId',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Remove a member (members may also remove themselves)',
        params: projectIdParams.extend({ userId: z.string().min(1).max(100) }),
        response: { 204: z.undefined().describe('Removed') },
      },
    },
    async (request, reply) => {
      const principal = requireUser(request);
      const { projectId, userId } = request.params;
      const { project } = userId === principal.userId ? await deps.access.require(projectId, principal) : await requireUpdate(projectId, principal);
      if (userId === project.ownerId) throw identityError('IDENTITY_OWNER_MEMBERSHIP');
      const removed = await deps.projects.removeMember(project.id, userId);
      if (!removed) throw identityError('IDENTITY_USER_NOT_FOUND', { message: 'Not a member of this project' });
      await deps.accessChanges.announce({ projectId: project.id });
      await deps.outbox.publish(membershipChangeMessages([membershipEnded(removed, principal.userId)], deps.clock));
      return reply.code(204).send();
    },
  );

  routes.patch(
    '/api/projects/:projectId/ai-settings',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Turn AI features on or off for the project',
        description: "Needs the project's RLS update permission. AI is off for new projects.",
        params: projectIdParams,
        body: aiSettingsBody,
        response: { 200: z.object({ success: z.literal(true) }), 500: z.object({ success: z.literal(false), error: z.string() }) },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { project } = await requireUpdate(request.params.projectId, caller);
      const { aiEnabled } = request.body;
      const failed = (error: unknown): null => {
        request.log.error({ err: error, projectId: project.id }, 'AI settings update failed');
        return null;
      };
      const updated = await deps.projects.setAiEnabled(project.id, aiEnabled).then(
        (saved) => saved ?? failed(new Error('project vanished')),
        (error: unknown) => failed(error),
      );
      if (!updated) return reply.code(500).send({ success: false, error: 'The AI settings could not be saved; try again' });
      await deps.accessChanges.announce({ projectId: project.id });
      // Saving the setting it has changes nothing a reader of the trail would see.
      if (project.aiEnabled !== aiEnabled) await deps.outbox.publish(projectSettingsChanged(aiEnabled ? 'aiEnabled' : 'aiDisabled', updated, caller.userId, deps.clock()));
      return { success: true as const };
    },
  );
}
