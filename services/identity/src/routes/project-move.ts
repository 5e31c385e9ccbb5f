import { projectNotFound, requireUser, rlsAllows, userGuard } from '@platform/kit';
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
 * no longer do.
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
          "Needs the project's RLS delete permission (by default its owner and its tenant's admins) and membership of the tenant it moves to (404 `IDENTITY_TENANT_NOT_FOUND` otherwise, as for a tenant that does not exist). Members, data and settings stay; the new tenant's admins manage it from then on.",
        params: projectIdParams,
        body: z.object({ tenantId: z.string().min(1).max(100) }).strict(),
        response: { 200: projectSchema },
      },
    },
    async (request) => {
      const caller = requireUser(request);
      const { project, caller: standing } = await deps.access.require(request.params.projectId, caller);
      if (!rlsAllows(project.access, 'delete', standing)) throw identityError('IDENTITY_FORBIDDEN', { message: 'You may not move this project' });
      const { tenantId } = request.body;
      if (!(await deps.tenants.find(tenantId)) || !(await deps.tenants.membership(tenantId, caller.userId))) throw identityError('IDENTITY_TENANT_NOT_FOUND');
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
