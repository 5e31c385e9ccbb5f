import { changeKinds } from '@platform/contracts';
import { ID_PATTERN } from '@platform/documents';
import { requireUser, type ProjectAccess } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANGE_DESCRIPTIONS } from '../domain/change-description';
import { clampLimit, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, skipFor, trailFilter } from '../domain/trail-query';
import { auditError } from '../errors';
import type { AuthorNames } from '../trail/author-names';
import { publicItem } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';

/** Pages past this are refused: skipping further would scan more than any trail holds. */
export const MAX_PAGE = 1_000_000;

/**
 * A whole non-negative number, typed as a number: `20` and `20.0` are the same, `2.5` and `abc` are
 * refused, and so is a number past the safe integers (the description's maximum), as too big.
 */
const wholeNumber = (description: string) =>
  z.coerce
    .number('must be a number')
    .int({ error: (issue) => (issue.code === 'too_big' ? `must be at most ${Number.MAX_SAFE_INTEGER}` : 'must be a whole number') })
    .min(0, 'must be at least 0')
    .describe(description);

const querySchema = z.object({
    // The piped bounds are not in the API description (it shows the input side), so meta declares them.
    page: wholeNumber('1-based page number (default 1)')
      .pipe(z.number().min(1, 'must be at least 1').max(MAX_PAGE, `must be at most ${MAX_PAGE}`))
      .meta({ minimum: 1, maximum: MAX_PAGE })
      .default(1),
    limit: wholeNumber(`Items per page (default ${DEFAULT_PAGE_SIZE}); larger values are clamped to ${MAX_PAGE_SIZE}`)
      .pipe(z.number().min(1, 'must be at least 1'))
      .transform(clampLimit)
      .meta({ minimum: 1 })
      .default(DEFAULT_PAGE_SIZE),
    userId: z.string().min(1).max(200).optional().describe('Only changes by this user'),
    typeId: z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -').optional().describe('Only changes to entities of this type (types, applications for those collections)'),
    from: wholeNumber('Range start, Unix ms, inclusive').optional(),
    to: wholeNumber('Range end, Unix ms, inclusive').optional(),
    changeType: z.enum(changeKinds).optional().describe('created, updated or deleted'),
  });

const itemSchema = z.object({
  entityId: z.string(),
  revision: z.number().int().describe("The entity's revision right after this change (0 for its creation): where it sits in the entity's history"),
  entityTitle: z.string(),
  entityTypeId: z.string(),
  entityTypeName: z.string(),
  changeDescription: z.enum(Object.values(CHANGE_DESCRIPTIONS) as [string, ...string[]]),
  userId: z.string(),
  userDisplayName: z.string().describe("The author's display name, or the user id when the author's privacy hides it from the caller"),
  timestamp: z.number(),
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
        params: z.object({ projectId: z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -') }),
        querystring: querySchema,
        response: { 200: responseSchema },
      },
    },
    async (request) => {
      const reader = requireUser(request);
      const query = request.query;
      if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
        throw auditError('AUDIT_INVALID_RANGE', { details: { field: 'from', from: query.from, to: query.to } });
      }
      const { caller } = await deps.projects.require(request.params.projectId, request.principal);
      const unreadableTypes = await deps.projects.types.unreadableTypes(request.params.projectId, caller);
      const { items, total } = await deps.trail.page(trailFilter(request.params.projectId, query, caller, unreadableTypes), skipFor(query), query.limit);
      const named = await deps.authorNames.visibleTo(reader, items.map((item) => item.userId));
      return { items: items.map((item) => publicItem(item, named.has(item.userId))), total, page: query.page, limit: query.limit };
    },
  );
}
