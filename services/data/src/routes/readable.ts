import type { Access } from '@platform/contracts';
import { requireUser, rlsAllows } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN, typeIdSchema, TypeDirectory, type DataDeps } from '@platform/documents';

/** Ids per request: a client with more local copies asks in batches. */
export const READABLE_MAX_IDS = 1_000;

const idSchema = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

const bodySchema = z.object({
  ids: z.array(idSchema).max(READABLE_MAX_IDS).describe(`The entity ids a client holds copies of (at most ${READABLE_MAX_IDS})`),
});

const responseSchema = z.object({
  readable: z.array(z.string()).describe('The given ids the caller may read now (deleted entities included, as pulls include their tombstones)'),
});

/**
 * POST .../types/{typeId}/data/readable: which of the given ids the caller may still read, so a
 * sync client can drop copies it lost access to (a pull by `updatedAt` never tells: the entity is
 * simply no longer returned). The answer names only ids that were sent, so it tells nothing about
 * others; an id that does not exist and one the caller may not read look alike. Same guards as a
 * read: project member (404 PROJECT_NOT_FOUND), readable type (404 DATA_TYPE_NOT_FOUND), the
 * entity's read rule.
 */
export async function registerReadableRoute(app: FastifyInstance, deps: DataDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/types/:typeId/data/readable',
    {
      schema: {
        tags: ['documents'],
        summary: 'Which of the given entity ids the caller may still read (for sync clients dropping copies after lost access)',
        params: z.object({ projectId: z.string().regex(ID_PATTERN), typeId: typeIdSchema }),
        body: bodySchema,
        response: { 200: responseSchema },
      },
    },
    async (request) => {
      requireUser(request);
      const { projectId, typeId } = request.params;
      const { caller } = await deps.projects.require(projectId, request.principal);
      await deps.types.requireReadable(projectId, typeId, caller);
      const ids = [...new Set(request.body.ids)];
      if (ids.length === 0) return { readable: [] };
      const found = await deps.store
        .collection<{ id: string; access?: Access }>(TypeDirectory.documentsScope(projectId, typeId).collection)
        .find({ id: { $in: ids } }, { projection: { id: 1, access: 1 } });
      return { readable: found.filter((entity) => rlsAllows(entity.access, 'read', caller)).map((entity) => entity.id) };
    },
  );
}
