import type { Access } from '@platform/contracts';
import { AppError, numberText, requestTraceContext, requireUser, standingDigest, type ProjectCaller } from '@platform/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHANGES_PER_PAGE, changeBudget, decodeCursor, PAGE_CHARACTERS, publicView, patchEntity, type DataDeps, type EntityKind, type PageBudget, type PullPage, type ResolvedKind, type StoredEntity } from '@platform/documents';
import { createEntity, entityIdSchema, removeEntity } from './entity-writes';
import { characterBudget, itemTextsWithChanges, jsonWithin, pageAnswerText, pageView } from './page-text';
import { dataError } from '../errors';
import { booleanQuery, CHANGES_PAGE_DEFAULT, CHANGES_PAGE_MAX, changesPageSchema, createBodySchema, revisionStateSchema, entitySchema, modifierInputSchema, pageSchema, patchConflictSchema } from './entity-schemas';

/**
 * The answers of writes (the entity with its whole history) go out as text built by
 * EntityReader.withChangesJson, already of entitySchema's shape: Fastify sends a string of this
 * type as it is. Encoding it through zod cost about 2.5% of a PATCH's CPU, and encoding the
 * history anew on every write made a write's cost grow with the entity's age.
 */
function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

/**
 * GET list/pull, GET one, POST, PATCH and DELETE for one family of collections, the same shape
 * everywhere as the spec requires. Every route needs a project member; RLS decides per entity.
 */
export function registerEntityRoutes<P extends z.ZodRawShape>(app: FastifyInstance, deps: DataDeps, kind: EntityKind<P>): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const entityParams = kind.params.extend({ id: entityIdSchema });

  async function open(request: FastifyRequest, params: z.infer<z.ZodObject<P>>): Promise<{ caller: ProjectCaller; resolved: ResolvedKind; projectAccess: Access | undefined }> {
    requireUser(request);
    const { project, caller } = await deps.projects.require((params as { projectId: string }).projectId, request.principal);
    return { caller, resolved: await kind.resolve(deps, params, { caller, projectAccess: project.access }), projectAccess: project.access };
  }

  typed.get(
    kind.basePath,
    {
      schema: {
        tags: [kind.tag],
        summary: 'List entities; with updatedAt, pull every change after that time (deleted ones as tombstones: id, revision, timestamps, deletedAt, access)',
        params: kind.params,
        querystring: z.object({
          updatedAt: numberText(z.coerce.number().int().min(0))
            .optional()
            .describe('0 returns all; otherwise entities modified after this time, deleted ones included as tombstones. Pulling again from the largest updatedAt seen misses nothing'),
          includeChanges: booleanQuery
            .optional()
            .describe(`true, false, 1 or 0. Each live entity with its change history; a page then ends sooner, between two milliseconds, to carry at most ${CHANGES_PER_PAGE.toLocaleString('en')} changes and ${PAGE_CHARACTERS / 1024 / 1024} MiB of entities with their changes (its first millisecond always whole), and its cursor continues it`),
          limit: numberText(z.coerce.number().int().min(1).max(5000).default(1000)).describe(
            `Items per page; a page runs over it to finish its last millisecond, and ends sooner (between two milliseconds, with a cursor) once its entities pass ${PAGE_CHARACTERS / 1024 / 1024} MiB of JSON`,
          ),
          cursor: z.string().max(500).optional().describe('From the previous page, to continue it (optional: updatedAt alone is as safe)'),
        }),
        response: { 200: pageSchema },
      },
    },
    async (request, reply) => {
      const { caller, resolved } = await open(request, request.params as z.infer<z.ZodObject<P>>);
      const { updatedAt, includeChanges, limit } = request.query;
      const cursor = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor);
      if (cursor === null) throw new AppError(400, 'DATA_INVALID_CURSOR', 'Invalid cursor: pass back the cursor of the previous page unchanged');
      const read = (budgets: Array<PageBudget<StoredEntity>>) =>
        updatedAt === undefined ? deps.reader.list(resolved.scope, caller, { limit, cursor, budgets }) : deps.reader.pull(resolved.scope, caller, { limit, cursor, budgets, since: updatedAt });
      const fieldsOf = (page: PullPage) => ({
        ...(page.cursor ? { cursor: page.cursor } : {}),
        ...(page.retryAfterMs !== undefined ? { retryAfterMs: page.retryAfterMs } : {}),
        ...(updatedAt !== undefined ? { standing: standingDigest(caller) } : {}),
      });
      // The page's schema documents the answer; it is sent as text, not re-encoded through zod
      // (for up to 5,000 entities that cost more than reading them from the store).
      if (includeChanges) {
        const texts = itemTextsWithChanges(deps.reader, resolved.scope);
        const page = await read([changeBudget, texts.budget]);
        return sendJsonText(reply, pageAnswerText(page.items.map(texts.of), fieldsOf(page)));
      }
      const page = await read([]);
      const text = jsonWithin({ items: page.items.map(pageView), ...fieldsOf(page) }, PAGE_CHARACTERS);
      if (text !== undefined) return sendJsonText(reply, text);
      // Large documents: read again, the page ending where its entities' text passes the budget.
      const cut = await read([characterBudget]);
      return sendJsonText(reply, JSON.stringify({ items: cut.items.map(pageView), ...fieldsOf(cut) }));
    },
  );

  typed.get(
    `${kind.basePath}/:id`,
    { schema: { tags: [kind.tag], summary: 'One entity', params: entityParams, querystring: z.object({ includeChanges: booleanQuery.optional() }), response: { 200: entitySchema } } },
    async (request) => {
      const { caller, resolved } = await open(request, request.params as z.infer<z.ZodObject<P>>);
      const entity = await deps.reader.readable(resolved.scope, (request.params as { id: string }).id, caller);
      return (request.query.includeChanges ? await deps.reader.withChanges(resolved.scope, entity) : publicView(entity)) as z.infer<typeof entitySchema>;
    },
  );

  typed.get(
    `${kind.basePath}/:id/changes`,
    {
      schema: {
        tags: [kind.tag],
        summary: "A page of the entity's change history, newest first (readable and 404 as the entity itself)",
        params: entityParams,
        querystring: z.object({
          fromRevision: numberText(z.coerce.number().int().min(0)).optional().describe("The newest revision to include; the entity's revision when absent"),
          limit: numberText(z.coerce.number().int().min(1).max(CHANGES_PAGE_MAX).default(CHANGES_PAGE_DEFAULT)).describe('Changes per page'),
        }),
        response: { 200: changesPageSchema },
      },
    },
    async (request) => {
      const { caller, resolved } = await open(request, request.params as z.infer<z.ZodObject<P>>);
      const entity = await deps.reader.readable(resolved.scope, (request.params as { id: string }).id, caller);
      const { fromRevision = entity.revision, limit } = request.query;
      if (fromRevision > entity.revision) throw dataError('DATA_REVISION_AHEAD', { details: { field: 'fromRevision', revision: entity.revision } });
      const items = await deps.reader.changesPage(resolved.scope, entity, fromRevision, limit);
      const oldest = fromRevision - limit + 1;
      return { revision: entity.revision, items, ...(oldest > 0 ? { nextFromRevision: oldest - 1 } : {}) };
    },
  );

  typed.get(
    `${kind.basePath}/:id/revisions/:revision`,
    {
      schema: {
        tags: [kind.tag],
        summary: "The entity's fields at one revision, replayed from its history (readable and 404 as the entity itself)",
        params: entityParams.extend({ revision: numberText(z.coerce.number().int().min(0)).describe('0 is the creation') }),
        response: { 200: revisionStateSchema },
      },
    },
    async (request) => {
      const { caller, resolved } = await open(request, request.params as z.infer<z.ZodObject<P>>);
      const { id, revision } = request.params as { id: string; revision: number };
      const entity = await deps.reader.readable(resolved.scope, id, caller);
      if (revision > entity.revision) throw dataError('DATA_REVISION_AHEAD', { details: { field: 'revision', revision: entity.revision } });
      return { revision, state: await deps.reader.stateAt(resolved.scope, entity, revision) };
    },
  );

  typed.post(
    kind.basePath,
    {
      schema: {
        tags: [kind.tag],
        summary: 'Create an entity (the complete document with changes in the answer)',
        params: kind.params,
        body: createBodySchema(kind.bodySchema, `${kind.bodyDescription ?? 'The full entity as JSON'}; id is generated when absent`),
        response: { 201: entitySchema },
      },
    },
    async (request, reply) => {
      const { caller, resolved, projectAccess } = await open(request, request.params as z.infer<z.ZodObject<P>>);
      const created = await createEntity({ deps, resolved, caller, projectAccess, traceContext: requestTraceContext(request) }, request.body, 'body');
      return sendJsonText(reply.code(201), await deps.reader.withChangesJson(resolved.scope, created));
    },
  );

  typed.patch(
    `${kind.basePath}/:id`,
    {
      schema: {
        tags: [kind.tag],
        summary: 'Apply an update modifier if the entity is still at baseRevision (409 with conflict details otherwise)',
        params: entityParams,
        body: z.object({ modifier: modifierInputSchema, baseRevision: z.number().int().min(0) }),
        response: { 200: entitySchema, 409: patchConflictSchema },
      },
    },
    async (request, reply) => {
      const { caller, resolved, projectAccess } = await open(request, request.params as z.infer<z.ZodObject<P>>);
      const { modifier, baseRevision } = request.body;
      resolved.checkModifier?.(modifier);
      const updated = await patchEntity(deps, resolved, { id: (request.params as { id: string }).id, modifier, baseRevision, caller, projectAccess, traceContext: requestTraceContext(request) });
      return sendJsonText(reply, await deps.reader.withChangesJson(resolved.scope, updated));
    },
  );

  typed.delete(
    `${kind.basePath}/:id`,
    { schema: { tags: [kind.tag], summary: 'Soft-delete an entity', params: entityParams, response: { 200: entitySchema } } },
    async (request, reply) => {
      const { caller, resolved, projectAccess } = await open(request, request.params as z.infer<z.ZodObject<P>>);
      const removed = await removeEntity({ deps, resolved, caller, projectAccess, traceContext: requestTraceContext(request) }, (request.params as { id: string }).id);
      return sendJsonText(reply, await deps.reader.withChangesJson(resolved.scope, removed));
    },
  );
}

