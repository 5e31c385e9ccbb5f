import type { Access } from '@platform/contracts';
import { AppError, requireUser, rlsAllows, type ProjectCaller } from '@platform/kit';
import { StoreUnavailableError } from '@platform/storage';
import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN, checkClientModifier, typeIdSchema, publicView, type StoredEntity, assertWithinLimits, badModifier, patchEntity, schemaViolation, type DataDeps, documentsKind, type ResolvedKind } from '@platform/documents';
import { dataError } from '../errors';

/** Operations per request: a client with more queued writes sends several requests. */
export const BULK_MAX_OPERATIONS = 500;

/** Operations of one request under way at once: the store commits concurrent writes together. */
const BULK_CONCURRENCY = 32;

const idSchema = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

const operationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('create'), fields: z.record(z.string(), z.unknown()).describe('The full document; `id` among them is the client-chosen id (generated when absent)') }),
  z.object({ op: z.literal('patch'), id: idSchema, modifier: z.record(z.string(), z.unknown()), baseRevision: z.number().int().min(0) }),
  z.object({ op: z.literal('delete'), id: idSchema }),
]);
type Operation = z.infer<typeof operationSchema>;

const bodySchema = z.object({
  operations: z.array(operationSchema).min(1).max(BULK_MAX_OPERATIONS).describe(`Creates, patches and deletes of documents of this type (at most ${BULK_MAX_OPERATIONS}); those naming the same entity apply in their order`),
});

const resultSchema = z.object({
  status: z.number().int().describe('What the single route would answer: 201 created, 200 patched or deleted, else its error status (400, 403, 404, 409, 500)'),
  body: z.record(z.string(), z.unknown()).describe('The document (without changes), or the error body `{ error, code, details? }` the single route would answer'),
});

const responseSchema = z.object({ results: z.array(resultSchema).describe('One per operation, in order') });

type Result = z.infer<typeof resultSchema>;

interface Writer {
  deps: DataDeps;
  resolved: ResolvedKind;
  caller: ProjectCaller;
  projectAccess: Access | undefined;
}

/** The rules of `POST .../data` (entity-routes), for one create of the batch. */
async function create({ deps, resolved, caller, projectAccess }: Writer, body: Record<string, unknown>): Promise<StoredEntity> {
  if (resolved.refuseWrites) throw resolved.refuseWrites;
  const { id, ...fields } = body;
  if (id !== undefined) {
    const idCheck = (resolved.idSchema ?? idSchema).safeParse(id);
    if (!idCheck.success) throw new AppError(400, 'VALIDATION_FAILED', `Invalid fields.id: ${idCheck.error.issues[0]?.message ?? 'invalid id'}`);
  }
  if (Object.keys(fields).length) {
    const problems = checkClientModifier({ $set: fields }, { allowAccess: rlsAllows(projectAccess, 'update', caller), serverOwned: resolved.serverOwnedFields, jsonSchemaFields: resolved.jsonSchemaFields });
    if (problems.length) throw badModifier(problems.map((p) => ({ ...p, path: p.path.replace(/^modifier\.\$set/, 'fields') })));
  }
  assertWithinLimits(deps.limits, fields, Object.keys(fields));
  const problems = resolved.validate(fields);
  if (problems.length) throw schemaViolation(problems);
  if (id !== undefined) await resolved.checkNewId?.(id as string);
  return deps.writer.create(resolved.scope, resolved.prepare?.(fields) ?? fields, { userId: caller.userId, id: id as string | undefined, defaultAccess: resolved.defaultAccess });
}

/** The rules of `DELETE .../data/{id}`, for one delete of the batch. */
async function remove({ deps, resolved, caller }: Writer, id: string): Promise<StoredEntity> {
  if (resolved.refuseWrites) throw resolved.refuseWrites;
  const entity = await deps.reader.readable(resolved.scope, id, caller);
  if (entity.deletedAt !== undefined) throw dataError('DATA_ENTITY_NOT_FOUND', { message: 'Entity is already deleted' });
  const mayDelete = resolved.mayDelete ? resolved.mayDelete(entity) : rlsAllows(entity.access, 'delete', caller);
  if (!mayDelete) throw dataError('DATA_FORBIDDEN', { message: 'You may not delete this entity' });
  return deps.writer.remove(resolved.scope, entity, caller.userId);
}

async function apply(writer: Writer, operation: Operation): Promise<Result> {
  if (operation.op === 'create') return { status: 201, body: publicView(await create(writer, operation.fields)) };
  if (operation.op === 'delete') return { status: 200, body: publicView(await remove(writer, operation.id)) };
  writer.resolved.checkModifier?.(operation.modifier);
  const { deps, resolved, caller, projectAccess } = writer;
  return { status: 200, body: publicView(await patchEntity(deps, resolved, { id: operation.id, modifier: operation.modifier, baseRevision: operation.baseRevision, caller, projectAccess })) };
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
 * after another in their order; answers the results in the operations' order.
 */
async function applyAll(writer: Writer, operations: Operation[], log: FastifyBaseLogger): Promise<Result[]> {
  const results: Result[] = [];
  const previousOf = new Map<string, Promise<unknown>>();
  let running = 0;
  const slots: Array<() => void> = [];
  const run = async (operation: Operation, index: number, previous: Promise<unknown> | undefined) => {
    await previous;
    if (running >= BULK_CONCURRENCY) await new Promise<void>((resolve) => slots.push(resolve));
    running += 1;
    try {
      results[index] = await apply(writer, operation).catch((error: unknown) => failure(error, log));
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
      const writer: Writer = { deps, resolved, caller, projectAccess: project.access };
      return { results: await applyAll(writer, request.body.operations, request.log) };
    },
  );
}
