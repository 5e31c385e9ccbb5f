import { domainTargetSchema } from '@platform/contracts';
import type { ProjectAccess } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANGE_DESCRIPTIONS } from '../domain/change-description';
import { skipFor } from '../domain/trail-query';
import type { AuthorNames } from '../trail/author-names';
import { shownItems } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';
import { readableTrailFilter } from './readable-trail-filter';
import { trailPageQuerySchema, trailProjectParams } from './trail-query-schema';

const itemSchema = z.object({
  entityId: z.string(),
  revision: z.number().int().describe("The entity's revision right after this change (0 for its creation): where it sits in the entity's history"),
  entityTitle: z.string().describe("The entity's title; for a membership change the member's display name as it is now (or its user id when the member's privacy hides it)"),
  entityTypeId: z.string(),
  entityTypeName: z.string(),
  changeDescription: z.enum(Object.values(CHANGE_DESCRIPTIONS) as [string, ...string[]]),
  userId: z.string(),
  userDisplayName: z.string().describe("The author's display name, or the user id when the author's privacy hides it from the caller"),
  timestamp: z.number(),
  permissions: z.array(z.string()).optional().describe("Membership changes (`entityTypeId` `members`): the member's permissions after the change"),
  previousPermissions: z.array(z.string()).optional().describe("Membership changes: the member's permissions before the change (absent when it was added)"),
  target: domainTargetSchema.optional().describe('Domain changes: the application the domain points at after the change, pinned to `versionId` or following its latest publish (null)'),
  previousTarget: domainTargetSchema.optional().describe('Domain assignments: where the domain pointed before (absent: nowhere)'),
  previousTitle: z.string().optional().describe("A domain's hostname, or the project's name, before the change that gave it another"),
  tenantId: z.string().optional().describe('A move of the project (`audit.projectMoved`): the tenant it joined'),
  previousTenantId: z.string().optional().describe('A move of the project: the tenant it left'),
  ownerId: z.string().optional().describe("A change of the project's owner (`audit.ownerChanged`): the user who owns it now"),
  previousOwnerId: z.string().optional().describe("A change of the project's owner: the user who owned it before"),
});

const responseSchema = z.object({ items: z.array(itemSchema), total: z.number(), page: z.number(), limit: z.number() });

/**
 * GET /api/projects/{projectId}/audit-trail: a project's changes across all types, newest first,
 * with filters. Project members only (others get the same 404 as an unknown project); items of
 * entities the caller may not read now, by their own read rule or their type's, are left out and
 * not counted, and authors' display names follow their profile privacy (AuthorNames).
 */
export function registerAuditTrailRoute(app: FastifyInstance, deps: { projects: ProjectAccess; trail: TrailStore; authorNames: AuthorNames }): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/projects/:projectId/audit-trail',
    {
      schema: {
        tags: ['audit'],
        summary: 'The project audit trail: changes across all types, newest first, only of entities the caller may read',
        params: trailProjectParams,
        querystring: trailPageQuerySchema,
        response: { 200: responseSchema },
      },
    },
    async (request) => {
      const query = request.query;
      const { reader, filter } = await readableTrailFilter(request, request.params.projectId, query, deps.projects);
      const { items, total } = await deps.trail.page(filter, skipFor(query), query.limit);
      return { items: await shownItems(items, reader, deps.authorNames), total, page: query.page, limit: query.limit };
    },
  );
}
