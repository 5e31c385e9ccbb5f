import { projectNotFound, requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { projectIdParams, projectSchema } from '../projects/project-schemas';
import { projectChangeMessages } from '../projects/project-changes';

/**
 * Moving a project to another tenant (a personal project that became a team's): its members,
 * data and settings stay; from then on the new tenant's admins manage it and the old tenant's
 * no longer do. The new tenant's admins become superusers of the project, so only a superuser
 * of it (its owner, an admin of its tenant, a platform owner) may hand it over: a delete rule
 * naming a permission is not full control. Into any tenant they belong to, as they may create
 * projects there (a member's personal project becoming the team's).
 */
export function registerProjectMoveRoute(app: FastifyInstance, deps: IdentityDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/move',
    {
      preHandler: userGuard,
      schema: {
        tags: ['projects'],
        summary: 'Move the project to another tenant',
        description:
          "Needs full control of the project (its owner, an admin of its tenant, a platform owner; others 403 `IDENTITY_FORBIDDEN`, whatever its delete rule says) and membership of the tenant it moves to (404 `IDENTITY_TENANT_NOT_FOUND` for a tenant the caller does not belong to, as for one that does not exist). Members, data and settings stay; the new tenant's admins manage it from then on.",
        params: projectIdParams,
        body: z.object({ tenantId: z.string().min(1).max(100) }).strict(),
        response: { 200: projectSchema },
      },
    },
    async (request) => {
      const caller = requireUser(request);
      const { project, caller: standing } = await deps.access.require(request.params.projectId, caller);
      // Not the delete rule: the target's admins become superusers, which a permission holder is not.
      if (!standing.superuser) throw identityError('IDENTITY_FORBIDDEN', { message: "Only the project's owner or an admin of its tenant may move it" });
      const { tenantId } = request.body;
      const membership = (await deps.tenants.find(tenantId)) && (await deps.tenants.membership(tenantId, caller.userId));
      if (!membership) throw identityError('IDENTITY_TENANT_NOT_FOUND');
      if (project.tenantId === tenantId) return project;
      const moved = await deps.projects.moveToTenant(project.id, tenantId);
      if (!moved) throw projectNotFound();
      // Tenant admins' standing in it changed in every process.
      await deps.accessChanges.announce({ projectId: project.id });
      await deps.outbox.publish(projectChangeMessages('moved', { after: moved, before: project }, caller.userId, deps.clock()));
      request.log.info({ projectId: project.id, from: project.tenantId, to: tenantId }, 'project moved');
      return moved;
    },
  );
}
