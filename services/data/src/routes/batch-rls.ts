import { storedAccessSchema } from '@platform/contracts';
import { AppError, requestTraceContext, requireUser, rlsAllows, rlsFilter } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN, typeIdSchema, type StoredEntity, TypeDirectory, type DataDeps } from '@platform/documents';
import { dataError } from '../errors';
import { batchModifierFor, batchRlsRequestSchema, batchTargetFilter } from '../domain/batch-rls';

const PAGE = 500;
/** What the batch reads of each entity: its access decides, its revision guards the write (a page of 500 whole documents of 1 MiB held 500 MB). */
const BATCH_FIELDS = { id: 1, revision: 1, access: 1, deletedAt: 1 } as const;
/** How often one entity is read again and retried when writes of others keep changing it under the batch. */
const ATTEMPTS = 5;
/** How many matching entities a dry run shows, so a person sees what the batch would touch. */
const SAMPLE_SIZE = 10;

const sampleSchema = z
  .array(
    z.object({
      id: z.string(),
      access: storedAccessSchema.optional(),
      deletedAt: z.number().optional(),
    }),
  )
  .describe(`Dry run only: up to ${SAMPLE_SIZE} of the matching entities the caller may read (by id), with their current access`);

const responseSchema = z.object({
  matchingCount: z.number(),
  action: z.string(),
  operations: z.array(z.string()),
  dryRun: z.boolean(),
  modifiedCount: z.number().optional(),
  deletedCount: z.number().optional().describe('With includeDeleted: how many of the matching entities are deleted'),
  sample: sampleSchema.optional(),
});

/**
 * POST .../types/{typeId}/batch-rls: changes the RLS of many entities at once. Each changed entity
 * is written like any other (revision, change, event); entities already as the action wants them
 * are matched but not modified. Deleted entities only with `includeDeleted`, which adds
 * `deletedCount` to the answer. A dry run also answers a `sample` of the matching entities. Needs the RLS update permission on the project.
 */
export async function registerBatchRlsRoute(app: FastifyInstance, deps: DataDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/types/:typeId/batch-rls',
    {
      schema: {
        tags: ['types'],
        summary: 'Change the RLS permissions of many entities of a type (dryRun previews)',
        params: z.object({ projectId: z.string().regex(ID_PATTERN), typeId: typeIdSchema }),
        body: batchRlsRequestSchema,
        response: { 200: responseSchema },
      },
    },
    async (request) => {
      requireUser(request);
      const { projectId, typeId } = request.params;
      const { project, caller } = await deps.projects.require(projectId, request.principal);
      if (!rlsAllows(project.access, 'update', caller)) throw dataError('DATA_FORBIDDEN', { message: 'Batch RLS needs the update permission on the project' });
      // The type's read rule binds the project's updaters too: one it excludes gets the 404 of an unknown type.
      const type = await deps.types.requireReadable(projectId, typeId, caller);
      const body = request.body;
      if (body.action === 'resetToDefault' && !type.defaultAccess) throw dataError('DATA_NO_DEFAULT_ACCESS');

      const scope = TypeDirectory.documentsScope(projectId, typeId);
      const collection = deps.store.collection<StoredEntity>(scope.collection);
      const filter = batchTargetFilter(projectId, body.filter, body.includeDeleted);
      const operations = body.action === 'resetToDefault' ? [] : (body.operations ?? []);
      const dryRun = body.dryRun ?? false;
      if (dryRun) {
        const matchingCount = await collection.count(filter);
        // Only entities the caller may read: the update permission on the project does not reveal the others.
        const found = await collection.find({ $and: [filter, rlsFilter('read', caller)] }, { sort: { id: 1 }, limit: SAMPLE_SIZE, projection: BATCH_FIELDS });
        const sample = found.map((entity) => ({ id: entity.id, ...(entity.access ? { access: entity.access } : {}), ...(entity.deletedAt !== undefined ? { deletedAt: entity.deletedAt } : {}) }));
        if (!body.includeDeleted) return { matchingCount, action: body.action, operations, dryRun, sample };
        return { matchingCount, action: body.action, operations, dryRun, sample, deletedCount: await collection.count({ $and: [filter, { deletedAt: { $exists: true } }] }) };
      }

      /**
       * Writes the batch's change of one entity, on the revision read; when another write changed
       * the entity meanwhile, reads it again and decides again (it may no longer match, or already
       * be as wanted). Conflicts never reach the caller: their details would show entities the
       * caller may not read, and the batch would stop half done.
       */
      const rewriteAccess = async (read: StoredEntity): Promise<boolean> => {
        let entity: StoredEntity | null = read;
        for (let attempt = 1; entity; attempt += 1) {
          const modifier = batchModifierFor(projectId, body, entity.access, type.defaultAccess);
          if (!modifier) return false;
          try {
            await deps.writer.patch(scope, entity.id, modifier, { userId: caller.userId, baseRevision: entity.revision, traceContext: requestTraceContext(request) });
            return true;
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'DATA_REVISION_CONFLICT') throw error;
            if (attempt === ATTEMPTS) throw dataError('DATA_REVISION_CONFLICT', { message: 'An entity kept changing while the batch ran; run it again (the entities it changed stay changed)' });
          }
          entity = await collection.findOne({ $and: [filter, { id: entity.id }] }, { projection: BATCH_FIELDS });
        }
        return false;
      };

      let matchingCount = 0;
      let deletedCount = 0;
      let modifiedCount = 0;
      let lastId = '';
      // Pages in id order from an index: without one, the embedded store scanned the whole
      // collection for every page (MongoDB's own `_id` index serves it already).
      await collection.ensureIndex({ keys: { id: 1 } });
      for (;;) {
        const page = await collection.find({ $and: [filter, { id: { $gt: lastId } }] }, { sort: { id: 1 }, limit: PAGE, projection: BATCH_FIELDS });
        for (const entity of page) {
          matchingCount += 1;
          if (entity.deletedAt !== undefined) deletedCount += 1;
          if (await rewriteAccess(entity)) modifiedCount += 1;
        }
        if (page.length < PAGE) break;
        lastId = (page[page.length - 1] as StoredEntity).id;
      }
      return { matchingCount, action: body.action, operations, dryRun, modifiedCount, ...(body.includeDeleted ? { deletedCount } : {}) };
    },
  );
}
