import { requestTraceContext, requireUser, rlsAllows } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN, typeIdSchema, TypeDirectory, type DataDeps } from '@platform/documents';
import { dataError } from '../errors';

const typeSchema = z
  .object({ id: z.string(), revision: z.number(), createdAt: z.number(), updatedAt: z.number(), changes: z.array(z.unknown()) })
  .loose()
  .describe('The restored type with all its changes');

/**
 * POST .../types/{typeId}/restore: undoes a type's soft delete (a revision and a change like any
 * write). Its documents were never touched, so they are reachable again as they were. Needs the
 * project's update permission, whoever deleted the type, and the type's read rule.
 */
export async function registerTypeRestoreRoute(app: FastifyInstance, deps: DataDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/types/:typeId/restore',
    {
      schema: {
        tags: ['types'],
        summary: 'Restore a deleted type with its documents (needs the update permission on the project)',
        params: z.object({ projectId: z.string().regex(ID_PATTERN), typeId: typeIdSchema }),
        response: { 200: typeSchema },
      },
    },
    async (request) => {
      requireUser(request);
      const { projectId, typeId } = request.params;
      const { project, caller } = await deps.projects.require(projectId, request.principal);
      if (!rlsAllows(project.access, 'update', caller)) throw dataError('DATA_FORBIDDEN', { message: 'Restoring a type needs the update permission on the project' });
      const type = await deps.types.find(projectId, typeId);
      // A type whose read rule excludes the caller is one they cannot see, deleted or not: the 404 of an unknown type.
      if (!type || !rlsAllows(type.access, 'read', caller)) throw dataError('DATA_TYPE_NOT_FOUND', { message: `Type ${typeId} not found in this project` });
      if (type.deletedAt === undefined) throw dataError('DATA_TYPE_NOT_DELETED', { message: `Type ${typeId} is not deleted` });
      const scope = TypeDirectory.typesScope(projectId);
      const restored = await deps.writer.patch(scope, typeId, { $unset: { deletedAt: '' } }, { userId: caller.userId, baseRevision: type.revision, traceContext: requestTraceContext(request) });
      return (await deps.reader.withChanges(scope, restored)) as z.infer<typeof typeSchema>;
    },
  );
}
