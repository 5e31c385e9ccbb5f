import { requestTraceContext, requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import { membershipChangeMessages, membershipEnded, membershipPut } from '../projects/membership-changes';
import { projectChangeMessages } from '../projects/project-changes';
import type { IdentityDeps } from '../identity-deps';
import { invitationIdParams, tenantInvitationSchema, type TenantInvitation } from '../invitations/invitation-schemas';
import { noticeInvitee } from '../invitations/invitee-notice';
import { projectSchema } from '../projects/project-schemas';
import { requireTenantRole } from '../tenants/tenant-repository';
import {
  putTenantMemberBody,
  tenantIdParams,
  tenantMemberParams,
  tenantMemberResponse,
  tenantNameBody,
  tenantSchema,
  tenantWithRoleSchema,
} from '../tenants/tenant-schemas';

const tags = ['tenants'];

function memberView({ tenantId, userId, role, createdAt }: { id: string; tenantId: string; userId: string; role: 'admin' | 'member'; createdAt: number }) {
  return { tenantId, userId, role, createdAt };
}

/**
 * Tenants (organizations) that own projects. Members see the tenant; admins rename it, manage its
 * members and see and manage all of its projects. Callers outside a tenant get 404 for it.
 */
export function registerTenantRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  async function requireRole(tenantId: string, userId: string, role: 'admin' | 'member') {
    const tenant = await deps.tenants.find(tenantId);
    const member = requireTenantRole(tenant ? await deps.tenants.membership(tenantId, userId) : null, role);
    return { tenant: tenant!, member };
  }

  /** Every process forgets its cached answers for these projects before the change is answered. */
  async function announceProjects(projectIds: string[]): Promise<void> {
    await Promise.all(projectIds.map((projectId) => deps.accessChanges.announce({ projectId })));
  }

  routes.post(
    '/api/tenants',
    { preHandler: userGuard, schema: { tags, summary: 'Create a tenant; the caller becomes its admin', body: tenantNameBody, response: { 201: tenantWithRoleSchema } } },
    async (request, reply) => {
      const tenant = await deps.tenants.create(request.body.name, requireUser(request).userId);
      return reply.code(201).send({ ...tenant, role: 'admin' as const });
    },
  );

  routes.get(
    '/api/tenants',
    { preHandler: userGuard, schema: { tags, summary: "The caller's tenants with its role in each (its personal tenant first)", response: { 200: z.object({ items: z.array(tenantWithRoleSchema) }) } } },
    async (request) => {
      const caller = requireUser(request);
      // Accounts older than tenants get their personal tenant here.
      await deps.tenants.personalTenant(await deps.users.require(caller.userId));
      const items = await deps.tenants.listForUser(caller.userId);
      return { items: [...items.filter((tenant) => tenant.personal), ...items.filter((tenant) => !tenant.personal)] };
    },
  );

  routes.get(
    '/api/tenants/:tenantId',
    { preHandler: userGuard, schema: { tags, summary: 'One tenant (members only)', params: tenantIdParams, response: { 200: tenantWithRoleSchema } } },
    async (request) => {
      const { tenant, member } = await requireRole(request.params.tenantId, requireUser(request).userId, 'member');
      return { ...tenant, role: member.role };
    },
  );

  routes.patch(
    '/api/tenants/:tenantId',
    { preHandler: userGuard, schema: { tags, summary: 'Rename a tenant (admins)', params: tenantIdParams, body: tenantNameBody, response: { 200: tenantSchema } } },
    async (request) => {
      await requireRole(request.params.tenantId, requireUser(request).userId, 'admin');
      const renamed = await deps.tenants.rename(request.params.tenantId, request.body.name);
      if (!renamed) throw identityError('IDENTITY_TENANT_NOT_FOUND');
      return renamed;
    },
  );

  routes.delete(
    '/api/tenants/:tenantId',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Delete a tenant (admins)',
        description:
          'Only a shared tenant without live projects: 409 `IDENTITY_TENANT_HAS_PROJECTS` while it has any (delete them first), 409 `IDENTITY_PERSONAL_TENANT` for a personal one (it goes with its account). Its members and pending invitations go with it; deleted projects of it stay restorable by their owners.',
        params: tenantIdParams,
        response: { 204: z.undefined().describe('Deleted') },
      },
    },
    async (request, reply) => {
      const { tenant } = await requireRole(request.params.tenantId, requireUser(request).userId, 'admin');
      if (tenant.personal) throw identityError('IDENTITY_PERSONAL_TENANT', { message: 'A personal tenant goes only with its account' });
      if ((await deps.tenants.projectsOf(tenant.id)).length > 0) throw identityError('IDENTITY_TENANT_HAS_PROJECTS');
      await deps.invitations.eraseTenant(tenant.id);
      await deps.tenants.remove(tenant.id);
      request.log.info({ tenantId: tenant.id }, 'tenant deleted');
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/tenants/:tenantId/members',
    { preHandler: userGuard, schema: { tags, summary: "The tenant's members (members only)", params: tenantIdParams, response: { 200: z.object({ items: z.array(tenantMemberResponse) }) } } },
    async (request) => {
      await requireRole(request.params.tenantId, requireUser(request).userId, 'member');
      return { items: (await deps.tenants.listMembers(request.params.tenantId)).map(memberView) };
    },
  );

  routes.put(
    '/api/tenants/:tenantId/members/:userId',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: "Invite a user to the tenant, or change a member's role (admins)",
        description:
          'A user who is not a member yet gets a pending invitation (202) and becomes a member only by accepting it (`POST /api/me/invitations/{invitationId}/accept`); the answer is the same whether or not the user id exists. A member\'s role is changed (200, the membership as stored), only while it is a member: 404 when it was removed meanwhile. A personal tenant takes no other members (409); the last admin cannot be made a member (409 `IDENTITY_LAST_TENANT_ADMIN`, also against concurrent demotions); 409 `IDENTITY_TENANT_ROLE_CHANGING` while another demotion of the member does not finish.',
        params: tenantMemberParams,
        body: putTenantMemberBody,
        response: { 200: tenantMemberResponse, 202: tenantInvitationSchema },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { tenantId, userId } = request.params;
      const { tenant } = await requireRole(tenantId, caller.userId, 'admin');
      const current = await deps.tenants.membership(tenantId, userId);
      if (!current) {
        if (tenant.personal) throw identityError('IDENTITY_PERSONAL_TENANT');
        const invitation = await deps.invitations.invite({ kind: 'tenant', tenantId }, userId, caller.userId, { role: request.body.role });
        noticeInvitee(deps, { userId, invitedBy: caller.userId, to: { kind: 'tenant', id: tenantId, name: tenant.name } }, request.log, requestTraceContext(request));
        return reply.code(202).send(invitation);
      }
      // A role change only: conditional on the role as read, never an insert, so a member removed meanwhile stays removed.
      const changed = await deps.tenants.changeRole(tenantId, userId, request.body.role);
      if (changed === 'gone') throw identityError('IDENTITY_USER_NOT_FOUND', { message: 'Not a member of this tenant (any more)' });
      if (changed === 'last-admin') throw identityError('IDENTITY_LAST_TENANT_ADMIN');
      if (changed === 'busy') throw identityError('IDENTITY_TENANT_ROLE_CHANGING');
      await announceProjects((await deps.tenants.projectsOf(tenantId)).map((project) => project.id));
      return reply.code(200).send(memberView(changed.member));
    },
  );

  routes.get(
    '/api/tenants/:tenantId/invitations',
    { preHandler: userGuard, schema: { tags, summary: "The tenant's pending invitations (admins)", params: tenantIdParams, response: { 200: z.object({ items: z.array(tenantInvitationSchema) }) } } },
    async (request) => {
      await requireRole(request.params.tenantId, requireUser(request).userId, 'admin');
      return { items: (await deps.invitations.pendingFor({ kind: 'tenant', tenantId: request.params.tenantId })) as TenantInvitation[] };
    },
  );

  routes.delete(
    '/api/tenants/:tenantId/invitations/:invitationId',
    {
      preHandler: userGuard,
      schema: { tags, summary: 'Withdraw a pending invitation (admins)', params: tenantIdParams.extend(invitationIdParams.shape), response: { 204: z.undefined().describe('Withdrawn') } },
    },
    async (request, reply) => {
      const { tenantId, invitationId } = request.params;
      await requireRole(tenantId, requireUser(request).userId, 'admin');
      if (!(await deps.invitations.cancel({ kind: 'tenant', tenantId }, invitationId))) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
      return reply.code(204).send();
    },
  );

  routes.delete(
    '/api/tenants/:tenantId/members/:userId',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Remove a member from the tenant and all its projects (admins; members may leave)',
        description: 'Projects the removed user owns pass to the admin who removes them (or, when an admin leaves, to another admin). The last admin cannot leave (409).',
        params: tenantMemberParams,
        response: { 204: z.undefined().describe('Removed') },
      },
    },
    async (request, reply) => {
      const caller = requireUser(request);
      const { tenantId, userId } = request.params;
      const leaving = userId === caller.userId;
      await requireRole(tenantId, caller.userId, leaving ? 'member' : 'admin');
      const removed = await deps.tenants.membership(tenantId, userId);
      if (!removed) throw identityError('IDENTITY_USER_NOT_FOUND', { message: 'Not a member of this tenant' });
      // An admin goes as a plain member: the guarded demotion keeps the tenant an admin even against concurrent ones.
      if (removed.role === 'admin') {
        const demoted = await deps.tenants.changeRole(tenantId, userId, 'member');
        if (demoted === 'gone') throw identityError('IDENTITY_USER_NOT_FOUND', { message: 'Not a member of this tenant' });
        if (demoted === 'last-admin') throw identityError('IDENTITY_LAST_TENANT_ADMIN');
        if (demoted === 'busy') throw identityError('IDENTITY_TENANT_ROLE_CHANGING');
      }
      const successor = leaving ? (await deps.tenants.listMembers(tenantId)).find((member) => member.role === 'admin' && member.userId !== userId)?.userId : caller.userId;
      if (successor === undefined) {
        // Not expected (its demotion found another admin, whose own demotion would have counted this one out): give the role back, unless it changed meanwhile, and refuse.
        if (removed.role === 'admin') await deps.tenants.restoreAdmin(tenantId, userId);
        throw identityError('IDENTITY_LAST_TENANT_ADMIN');
      }
      const { ended, handedOver, promoted } = await deps.tenants.removeMember(tenantId, userId, successor);
      // An admin reached every project of the tenant, member of it or not: each one's standing changed.
      const reached = removed.role === 'admin' ? (await deps.tenants.projectsOf(tenantId)).map((project) => project.id) : [];
      await announceProjects([...new Set([...ended.map((membership) => membership.projectId), ...reached])]);
      await deps.outbox.publish([
        ...handedOver.flatMap((project) => projectChangeMessages('ownerChanged', { after: project }, caller.userId, deps.clock(), userId)),
        // The successor's own membership of a project it now owns: the owner role replaced its permissions.
        ...membershipChangeMessages(promoted.flatMap(({ member, previousPermissions }) => membershipPut(member, previousPermissions, caller.userId)), deps.clock),
        ...membershipChangeMessages(ended.map((membership) => membershipEnded(membership, caller.userId)), deps.clock),
      ]);
      return reply.code(204).send();
    },
  );

  routes.get(
    '/api/tenants/:tenantId/projects',
    { preHandler: userGuard, schema: { tags, summary: "The tenant's projects: all of them for admins, the caller's own for members", params: tenantIdParams, response: { 200: z.object({ items: z.array(projectSchema) }) } } },
    async (request) => {
      const caller = requireUser(request);
      const { member } = await requireRole(request.params.tenantId, caller.userId, 'member');
      const projects = await deps.tenants.projectsOf(request.params.tenantId);
      if (member.role === 'admin') return { items: projects };
      const mine = new Set((await deps.projects.listForUser(caller.userId)).map((project) => project.id));
      return { items: projects.filter((project) => mine.has(project.id)) };
    },
  );
}
