import { AppError, requestTraceContext, requireUser } from '@platform/kit';
import { StoreUnavailableError } from '@platform/storage';
import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN, typeIdSchema, publicView, patchEntity, type ConflictDetailsGate, type DataDeps, documentsKind } from '@platform/documents';
import { BULK_CONFLICT_DETAILS_BUDGET, BULK_CONFLICT_REPLAY_BUDGET, ConflictDetailsBudget } from './bulk-conflict-budget';
import { BULK_DOCUMENTS_BUDGET, documentsWithin } from './bulk-document-budget';
import { createEntity, entityIdSchema, removeEntity, type EntityWriteContext } from './entity-writes';

/** Operations per request: a client with more queued writes sends several requests. */
export const BULK_MAX_OPERATIONS = 500;

/** Operations of one request under way at once: the store commits concurrent writes together. */
const BULK_CONCURRENCY = 32;

const operationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('create'), fields: z.record(z.string(), z.unknown()).describe('The full document; `id` among them is the client-chosen id (generated when absent)') }),
  z.object({ op: z.literal('patch'), id: entityIdSchema, modifier: z.record(z.string(), z.unknown()), baseRevision: z.number().int().min(0) }),
  z.object({ op: z.literal('delete'), id: entityIdSchema }),
]);
type Operation = z.infer<typeof operationSchema>;

const bodySchema = z.object({
  operations: z.array(operationSchema).min(1).max(BULK_MAX_OPERATIONS).describe(`Creates, patches and deletes of documents of this type (at most ${BULK_MAX_OPERATIONS}); those naming the same entity apply in their order`),
});

const resultSchema = z.object({
  status: z.number().int().describe('What the single route would answer: 201 created, 200 patched or deleted, else its error status (400, 403, 404, 409, 500)'),
  body: z
    .record(z.string(), z.unknown())
    .describe(
      `The document (without changes), or the error body \`{ error, code, details? }\` the single route would answer. Documents are answered up to about ${BULK_DOCUMENTS_BUDGET / 1024 / 1024} MiB of them an answer (the first always); later successes answer \`{ id, revision, createdAt, updatedAt, deletedAt?, bodyOmitted: true }\` (applied all the same: read that revision with GET .../data/{id}/revisions/{revision}). Revision conflicts carry their details up to about ${BULK_CONFLICT_DETAILS_BUDGET / 1024 / 1024} MiB of them an answer and ${BULK_CONFLICT_REPLAY_BUDGET} revisions of history replayed for them (the first always); later ones answer \`details: { baseRevision, currentRevision, detailsOmitted: true }\`: send that operation again, alone or first, to get them`,
    ),
});

const responseSchema = z.object({ results: z.array(resultSchema).describe('One per operation, in order') });

type Result = z.infer<typeof resultSchema>;

async function apply(writer: EntityWriteContext, operation: Operation, mayExplainConflict: ConflictDetailsGate): Promise<Result> {
  if (operation.op === 'create') return { status: 201, body: publicView(await createEntity(writer, operation.fields, 'fields')) };
  if (operation.op === 'delete') return { status: 200, body: publicView(await removeEntity(writer, operation.id)) };
  writer.resolved.checkModifier?.(operation.modifier);
  const { deps, resolved, caller, projectAccess } = writer;
  return { status: 200, body: publicView(await patchEntity(deps, resolved, { id: operation.id, modifier: operation.modifier, baseRevision: operation.baseRevision, caller, projectAccess, traceContext: writer.traceContext, mayExplainConflict })) };
}

/** One operation's failure as the single route's error handler would answer it. */
function failure(error: unknown, log: FastifyBaseLogger): Result {
  if (error instanceof AppError && (error.statusCode < 500 || error.statusCode === 503)) {
    return { status: error.statusCode, body: { error: error.message, code: error.code, ...(error.details === undefined ? {} : { details: error.details }) } };
  }
  if (error instanceof StoreUnavailableError) return { status: 503, body: { error: 'The database cannot be reached right now; try again shortly', code: 'STORE_UNAVAILABLE' } };
  log.error({ err: error }, 'bulk operation failed');
  return { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } };
}

/** The entity an operation names, if it names one (a create without an id names a new one). */
function entityOf(operation: Operation): string | undefined {
  if (operation.op !== 'create') return operation.id;
  return typeof operation.fields.id === 'string' ? operation.fields.id : undefined;
}

/**
 * Runs every operation, up to BULK_CONCURRENCY at once, operations naming the same entity one
 * after another in their order; answers the results in the operations' order, their documents and
 * conflict details held to the answer's budgets.
 */
async function applyAll(writer: EntityWriteContext, operations: Operation[], log: FastifyBaseLogger): Promise<Result[]> {
  const results: Result[] = [];
  const conflicts = new ConflictDetailsBudget();
  const documents = documentsWithin(BULK_DOCUMENTS_BUDGET);
  const previousOf = new Map<string, Promise<unknown>>();
  let running = 0;
  const slots: Array<() => void> = [];
  const run = async (operation: Operation, index: number, previous: Promise<unknown> | undefined) => {
    await previous;
    if (running >= BULK_CONCURRENCY) await new Promise<void>((resolve) => slots.push(resolve));
    running += 1;
    try {
      const result = await apply(writer, operation, conflicts.mayExplain).catch((error: unknown) => failure(error, log));
      results[index] = documents(conflicts.within(result));
    } finally {
      running -= 1;
      slots.shift()?.();
    }
  };
  await Promise.all(
    operations.map((operation, index) => {
      const entity = entityOf(operation);
      const task = run(operation, index, entity === undefined ? undefined : previousOf.get(entity));
      if (entity !== undefined) previousOf.set(entity, task);
      return task;
    }),
  );
  return results;
}

/**
 * POST .../types/{typeId}/data/bulk: many creates, patches and deletes of one type's documents in
 * one request (a sync client pushing its offline queue). Each operation goes through exactly what
 * its single route does (RLS, modifier rules, limits, schema, revision guard, history, events and
 * so audit) and gets its own result. Operations on the same entity apply in their order, others
 * concurrently; they are not atomic: an operation that fails changes nothing of its own and leaves
 * the others as they are.
 */
export async function registerBulkRoute(app: FastifyInstance, deps: DataDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/types/:typeId/data/bulk',
    {
      schema: {
        tags: ['documents'],
        summary: `Apply up to ${BULK_MAX_OPERATIONS} creates, patches and deletes of one type's documents, each with its own result (not atomic)`,
        params: z.object({ projectId: z.string().regex(ID_PATTERN), typeId: typeIdSchema }),
        body: bodySchema,
        response: { 200: responseSchema },
      },
    },
    async (request) => {
      requireUser(request);
      const { project, caller } = await deps.projects.require(request.params.projectId, request.principal);
      const resolved = await documentsKind.resolve(deps, request.params, { caller, projectAccess: project.access });
      const writer: EntityWriteContext = { deps, resolved, caller, projectAccess: project.access, traceContext: requestTraceContext(request) };
      return { results: await applyAll(writer, request.body.operations, request.log) };
    },
  );
}
