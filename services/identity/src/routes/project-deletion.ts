import { projectNotFound, requireUser, rlsAllows, userGuard, type ProjectRecord } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { deletedProjectSchema, projectIdParams, projectSchema } from '../projects/project-schemas';
import { projectSettingsChanged } from '../projects/project-changes';

const tags = ['projects'];

/**
 * Deleting a project and taking the deletion back. A deleted project answers 404 on every route of
 * every service at once (identity announces the change, as for a membership change), its realtime
 * streams close, and its domains stop resolving; its data stays in the store, restorable by those
 * who may delete it, for `IDENTITY_PROJECT_RESTORE_DAYS`.
 */
export function registerProjectDeletionRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const restorable = (project: ProjectRecord) => ({ ...project, deletedAt: project.deletedAt!, restorableUntil: project.deletedAt! + deps.projectRestorePeriodMs });

  routes.delete(
    '/api/projects/:projectId',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Delete the project (restorable for a while)',
        description:
          "Needs the project's RLS delete permission (by default its owner and the tenant's admins). Every route of the project answers 404 from then on, for everyone; its domains stop resolving. It can be restored (`POST /api/projects/{projectId}/restore`) until `restorableUntil` (`IDENTITY_PROJECT_RESTORE_DAYS`, 30 by default).",
        params: projectIdParams,
        response: { 200: deletedProjectSchema },
      },
    },
    async (request) => {
      const principal = requireUser(request);
      const { project, caller } = await deps.access.require(request.params.projectId, principal);
      if (!rlsAllows(project.access, 'delete', caller)) throw identityError('IDENTITY_FORBIDDEN', { message: 'You may not delete this project' });
      const deleted = await deps.projects.markDeleted(project.id);
      if (!deleted) throw projectNotFound();
      await deps.accessChanges.announce({ projectId: project.id });
      await deps.outbox.publish(projectSettingsChanged('deleted', deleted, principal.userId, deps.clock()));
      request.log.info({ projectId: project.id }, 'project deleted');
      return restorable(deleted);
    },
  );

  routes.get(
    '/api/projects/deleted',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Deleted projects the caller may restore, most recently deleted first',
        description: 'Those whose RLS delete permission the caller holds and whose restore period has not ended.',
        response: { 200: z.object({ items: z.array(deletedProjectSchema) }) },
      },
    },
    async (request) => {
      const principal = requireUser(request);
      const now = deps.clock();
      const candidates = await deps.projects.listDeletedForUser(principal.userId, await deps.tenants.adminTenantIds(principal.userId));
      const items = [];
      for (const project of candidates) {
        const shown = restorable(project);
        if (shown.restorableUntil > now && (await mayDelete(project))) items.push(shown);
      }
      return { items };

      async function mayDelete(project: ProjectRecord): Promise<boolean> {
        const caller = await deps.access.standingIn(project, principal);
        return caller !== null && rlsAllows(project.access, 'delete', caller);
      }
    },
  );

  routes.post(
    '/api/projects/:projectId/restore',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Restore a deleted project',
        description:
          "Needs the project's RLS delete permission. 404 for a project that is not deleted or that the caller may not restore; 409 `IDENTITY_PROJECT_RESTORE_EXPIRED` once its restore period has ended.",
        params: projectIdParams,
        response: { 200: projectSchema },
      },
    },
    async (request) => {
      const principal = requireUser(request);
      const project = await deps.projects.findDeleted(request.params.projectId);
      const caller = project && (await deps.access.standingIn(project, principal));
      // Anyone who could not delete it learns nothing about it, as for any project of others.
      if (!project || !caller || !rlsAllows(project.access, 'delete', caller)) throw projectNotFound();
      // A purged project's data is erased: it stays purged even if the restore period grew since.
      if (project.purgedAt !== undefined || restorable(project).restorableUntil <= deps.clock()) throw identityError('IDENTITY_PROJECT_RESTORE_EXPIRED');
      const restored = await deps.projects.restore(project.id);
      if (!restored) throw projectNotFound();
      await deps.accessChanges.announce({ projectId: project.id });
      await deps.outbox.publish(projectSettingsChanged('restored', restored, principal.userId, deps.clock()));
      request.log.info({ projectId: project.id }, 'project restored');
      return restored;
    },
  );
}
