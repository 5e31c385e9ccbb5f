import { randomUUID } from 'node:crypto';
import { checkNewFields, documentError, ID_PATTERN, limitProblem, publicView, validateDocument, validationOptions, ValidationBudgetExceededError, type DataLimits, type DocumentLimits, type StoredEntity } from '@platform/documents';
import { requestTraceContext } from '@platform/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertPublicDataSize } from '../domain/public-data-size';
import { chooseDeletionPeriod, retentionFields } from '../domain/retention-rules';
import { EVENT_TYPES, INTERNAL_VISITOR_FIELDS, SERVER_EVENT_FIELDS, withoutServerFields } from '../domain/visitor-fields';
import { visitorsError } from '../errors';
import { authorizeVisitor, limitKiosk, openProject, publicDataLimit, SECRET_HEADER, withinDailyQuota, type VisitorCaller } from './access';
import type { VisitorsDeps } from './context';
import { resolveEventCollection, resolveVisitorCollection, type TypeRecord } from './resolve-collection';

const id = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');
const projectParams = z.object({ projectId: id });
const visitorParams = z.object({ projectId: id, visitorId: id });
const collectionName = z.string().min(1).max(200).describe('tenant-{projectId}-{typeId} of a type a CheckIn widget of the project names');
const data = z.record(z.string(), z.unknown());
const deletionPeriod = z.number().int().positive().optional().describe('The duration (ms) of one of the CheckIn widget\'s deletion periods; the default period when absent');
const secretHeader = z.object({ [SECRET_HEADER]: z.string().max(200).optional().describe('The secret returned when the visitor was created (not needed by project members)') });
const visitorSchema = z
  .object({
    id: z.string(),
    revision: z.number(),
    createdAt: z.number(),
    updatedAt: z.number(),
    deletedAt: z.number().optional(),
    latestEventType: z.enum(EVENT_TYPES).optional(),
    latestEventAt: z.number().optional(),
    deleteOn: z.number().optional(),
    deleteOnPreference: z.number().optional(),
  })
  .loose();

/** The data service's code for each limit a stored document may break (docs/data.md, Size limits). */
const LIMIT_CODES = { array: 'DATA_ARRAY_TOO_LONG', depth: 'DATA_DOCUMENT_TOO_DEEP', number: 'DATA_NUMBER_OUT_OF_RANGE', size: 'DATA_DOCUMENT_TOO_LARGE' } as const;

/**
 * Throws 400 VISITORS_INVALID_DATA when a record, as it would be stored (`stored`: its existing
 * fields with the write's applied), breaks the data service's limits: size, array length, depth or
 * a non-finite number. `changed` are the fields the write sets (a size problem names the largest).
 */
function assertStorable(limits: DocumentLimits, stored: Record<string, unknown>, changed: readonly string[]): void {
  const problem = limitProblem(stored, limits, changed);
  if (!problem) return;
  const { kind, field, message, ...numbers } = problem;
  const named = `data.${field}`;
  throw visitorsError('VISITORS_INVALID_DATA', {
    message: `Invalid ${named}: ${message}`,
    details: { problems: [{ field: named, message, code: LIMIT_CODES[kind], ...numbers }] },
  });
}

/**
 * The type schema's problems with a record, within the data service's time budget and limit on
 * pattern work: past them the write is refused (422) rather than waited for, as a document's is.
 */
function schemaProblems(limits: DataLimits, schema: unknown, record: Record<string, unknown>): Array<{ field: string; message: string }> {
  try {
    return validateDocument(schema, record, validationOptions(limits)).map((problem) => ({ ...problem, field: `data.${problem.field}` }));
  } catch (error) {
    if (!(error instanceof ValidationBudgetExceededError)) throw error;
    const field = `data.${error.field}`;
    throw visitorsError('VISITORS_VALIDATION_TOO_SLOW', { message: `Invalid ${field}: ${error.message}`, details: { field, budgetMs: error.budgetMs, code: 'DATA_VALIDATION_TOO_SLOW' } });
  }
}

/**
 * The data service's rules for new fields, problems named under `data`; those of the whole (its
 * size, depth or path count) name the data service's `modifier`, which here is `data`.
 */
function newFieldProblems(fields: Record<string, unknown>): Array<{ path: string; message: string }> {
  if (!Object.keys(fields).length) return [];
  return checkNewFields(fields, 'data', { allowAccess: false }).map((problem) => (problem.path === 'modifier' ? { ...problem, path: 'data' } : problem));
}

/**
 * The client's fields after the server-owned ones are dropped, checked against a public caller's
 * `maxBytes` (with the record's `existing` fields), by the data service's own rules (no system,
 * internal or access fields, safe keys), its limits on the record as it would be stored (`existing`
 * fields, then these, then the server's `serverFields`), and the type's schema.
 */
function clientFields(
  limits: DataLimits,
  input: Record<string, unknown>,
  owned: readonly string[],
  type: TypeRecord,
  { existing = {}, serverFields = {}, maxBytes }: { existing?: Record<string, unknown>; serverFields?: Record<string, unknown>; maxBytes?: number | undefined } = {},
): Record<string, unknown> {
  const { fields } = withoutServerFields(input, owned);
  // First: a public caller's oversized data is refused before any work is spent on it.
  assertPublicDataSize(fields, { existing, owned, maxBytes });
  const keyProblems = newFieldProblems(fields);
  const first = keyProblems[0];
  if (first) throw visitorsError('VISITORS_INVALID_DATA', { message: `Invalid ${first.path}: ${first.message}`, details: { problems: keyProblems.map((problem) => ({ field: problem.path, message: problem.message })) } });
  // Before the schema: validating a 50,000-element array only to refuse it would be wasted work.
  assertStorable(limits, { ...existing, ...fields, ...serverFields }, [...Object.keys(fields), ...Object.keys(serverFields)]);
  const problems = schemaProblems(limits, type.schema, { ...existing, ...fields });
  const invalid = problems[0];
  if (invalid) throw visitorsError('VISITORS_INVALID_DATA', { message: `Invalid ${invalid.field}: ${invalid.message}`, details: { problems } });
  return fields;
}

/** `$set` of `set` on `current`, once the result is known to be within the limits (400 otherwise). */
function storableSet(limits: DocumentLimits, current: StoredEntity, set: Record<string, unknown>): { $set: Record<string, unknown> } {
  assertStorable(limits, { ...ownFields(current), ...set }, Object.keys(set));
  return { $set: set };
}

/**
 * A visitor as the caller sees it: a public caller (a kiosk, a secret holder) gets no `access`,
 * which names members' user ids and permissions.
 */
function visitorView(who: VisitorCaller, visitor: StoredEntity): z.infer<typeof visitorSchema> {
  const { access, ...rest } = publicView(visitor);
  return (who.kind === 'member' && access !== undefined ? { ...rest, access } : rest) as z.infer<typeof visitorSchema>;
}

/** Visitor answers are for one caller, authenticated by a header shared caches do not key on: none may keep them. */
async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store');
}

/** A record's own fields as its type schema sees them. */
function ownFields(entity: StoredEntity): Record<string, unknown> {
  const { id: _id, revision, createdAt, updatedAt, deletedAt, ...rest } = publicView(entity);
  return rest;
}

function periodFor(periods: Parameters<typeof chooseDeletionPeriod>[0], requested: number | undefined) {
  const period = chooseDeletionPeriod(periods, requested);
  if (!period) {
    throw visitorsError('VISITORS_INVALID_DELETION_PERIOD', {
      message: `Invalid deletionPeriod: ${requested} ms is not offered; choose one of ${periods.map((p) => p.duration).join(', ')}`,
      details: { field: 'deletionPeriod', offered: periods.map((p) => p.duration) },
    });
  }
  return period;
}

/**
 * Visitor check-in: public for a kiosk (rate-limited per address and per kiosk binding); one visitor is
 * read or changed with its secret, or by a project member under RLS. Records are documents of
 * their types, written through the data service's writer.
 */
export async function registerVisitorRoutes(app: FastifyInstance, deps: VisitorsDeps): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // Strict: a misspelt `deletionPeriod` would otherwise give the default period without a word.
  const checkInBody = z.object({ collectionName, data, deletionPeriod }).strict();
  const base = '/api/projects/:projectId/visitors';

  typed.post(
    base,
    {
      onRequest: noStore,
      schema: {
        tags: ['visitors'],
        summary: 'Check a visitor in: create the visitor record (public, rate-limited); answers its id and the secret to change it later',
        security: [],
        params: projectParams,
        body: checkInBody,
        response: { 201: z.object({ id: z.string(), secret: z.string().describe(`Send as ${SECRET_HEADER} to read, change or add events to this visitor`) }) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const who = await openProject(deps, request, projectId);
      const target = await resolveVisitorCollection(deps, who, projectId, request.body.collectionName, { deletionPeriod: request.body.deletionPeriod, writes: true });
      await limitKiosk(deps, request, who, target.scope.collection);
      const period = periodFor(target.periods, request.body.deletionPeriod);
      const retention = retentionFields(deps.clock(), period.duration);
      const access = target.type.defaultAccess ? { access: target.type.defaultAccess } : {};
      const fields = clientFields(deps.data.limits, request.body.data, INTERNAL_VISITOR_FIELDS, target.type, { serverFields: { ...retention, ...access }, maxBytes: publicDataLimit(deps, who) });
      // The erasure date and the secret are written with the document (before it on MongoDB), so no
      // visitor is ever created without its erasure date.
      const visitorId = randomUUID();
      let secret = '';
      const visitor = await withinDailyQuota(deps, who, target.scope.collection, () =>
        deps.records.create(target.scope, { ...fields, ...retention }, {
          id: visitorId,
          userId: who.kind === 'member' ? who.caller.userId : 'anonymous',
          defaultAccess: target.type.defaultAccess,
          traceContext: requestTraceContext(request),
          preceding: async (section) => {
            await deps.ledger.schedule(target.scope, visitorId, retention, section);
            secret = await deps.secrets.issue(target.scope.collection, visitorId, section);
          },
        }),
      );
      return reply.code(201).send({ id: visitor.id, secret });
    },
  );

  typed.get(
    `${base}/:visitorId`,
    {
      onRequest: noStore,
      schema: { tags: ['visitors'], summary: 'One visitor (with its secret, or as a project member)', security: [], params: visitorParams, headers: secretHeader, querystring: z.object({ collectionName }), response: { 200: visitorSchema } },
    },
    async (request) => {
      const { projectId, visitorId } = request.params;
      const who = await openProject(deps, request, projectId);
      const target = await resolveVisitorCollection(deps, who, projectId, request.query.collectionName, { writes: false });
      await limitKiosk(deps, request, who, target.scope.collection);
      const { visitor } = await authorizeVisitor(deps, request, who, await deps.records.find(target.scope, visitorId), target.scope.collection, 'read');
      return visitorView(who, visitor);
    },
  );

  typed.patch(
    `${base}/:visitorId`,
    {
      onRequest: noStore,
      schema: {
        tags: ['visitors'],
        summary: 'Change a visitor\'s fields (with its secret, or as a project member); internal fields are ignored',
        security: [],
        params: visitorParams,
        headers: secretHeader,
        body: checkInBody,
        response: { 200: visitorSchema },
      },
    },
    async (request) => {
      const { projectId, visitorId } = request.params;
      const who = await openProject(deps, request, projectId);
      const target = await resolveVisitorCollection(deps, who, projectId, request.body.collectionName, { deletionPeriod: request.body.deletionPeriod, writes: true });
      await limitKiosk(deps, request, who, target.scope.collection);
      const { visitor, userId } = await authorizeVisitor(deps, request, who, await deps.records.find(target.scope, visitorId), target.scope.collection, 'update');
      if (visitor.deletedAt !== undefined) throw visitorsError('VISITORS_NOT_FOUND', { message: 'Visitor is deleted' });
      const period = request.body.deletionPeriod === undefined ? undefined : periodFor(target.periods, request.body.deletionPeriod);
      const retention = period ? retentionFields(deps.clock(), period.duration) : undefined;
      const maxBytes = publicDataLimit(deps, who);
      const fields = clientFields(deps.data.limits, request.body.data, INTERNAL_VISITOR_FIELDS, target.type, { existing: ownFields(visitor), serverFields: retention, maxBytes });
      // Only a visitor the service manages has an erasure date to move (one in its retention ledger).
      const managed = retention !== undefined && (await deps.ledger.preferenceOf(target.scope, visitor.id)) !== undefined;
      if (!Object.keys(fields).length && !managed) return visitorView(who, visitor);
      const set = { ...fields, ...(managed ? retention : {}) };
      const updated = await withinDailyQuota(deps, who, target.scope.collection, () =>
        deps.records.update(
          target.scope,
          visitor.id,
          userId,
          (current) => {
            // Deleted since it was read: as for a visitor deleted before.
            if (current.deletedAt !== undefined) throw visitorsError('VISITORS_NOT_FOUND', { message: 'Visitor is deleted' });
            // Checked again on the state the write applies to: concurrent changes must not add up past the limits.
            assertPublicDataSize(fields, { existing: ownFields(current), owned: INTERNAL_VISITOR_FIELDS, maxBytes });
            return storableSet(deps.data.limits, current, set);
          },
          {
            // The ledger's date moves with the visitor's, in its write: a PATCH that fails moves neither.
            preceding: async (section) => {
              if (managed) await deps.ledger.reschedule(target.scope, visitor.id, retention, section);
            },
            traceContext: requestTraceContext(request),
          },
        ),
      );
      return visitorView(who, updated);
    },
  );

  typed.delete(
    `${base}/:visitorId`,
    {
      onRequest: noStore,
      schema: { tags: ['visitors'], summary: 'Soft-delete a visitor (with its secret, or as a project member)', security: [], params: visitorParams, headers: secretHeader, querystring: z.object({ collectionName }), response: { 200: visitorSchema } },
    },
    async (request) => {
      const { projectId, visitorId } = request.params;
      const who = await openProject(deps, request, projectId);
      const target = await resolveVisitorCollection(deps, who, projectId, request.query.collectionName, { writes: true });
      await limitKiosk(deps, request, who, target.scope.collection);
      const { visitor, userId } = await authorizeVisitor(deps, request, who, await deps.records.find(target.scope, visitorId), target.scope.collection, 'delete');
      if (visitor.deletedAt !== undefined) throw visitorsError('VISITORS_NOT_FOUND', { message: 'Visitor is already deleted' });
      const removed = await deps.records.update(target.scope, visitor.id, userId, () => ({ $set: { deletedAt: deps.clock() } }), { traceContext: requestTraceContext(request) });
      return visitorView(who, removed);
    },
  );

  typed.post(
    `${base}/:visitorId/events`,
    {
      onRequest: noStore,
      schema: {
        tags: ['visitors'],
        summary: 'Record a check-in or check-out of a visitor (with its secret, or as a project member)',
        security: [],
        params: visitorParams,
        headers: secretHeader,
        body: z.object({ collectionName: collectionName.describe('tenant-{projectId}-{typeId} of the visitor-event type a CheckIn widget names'), data: data.and(z.object({ eventType: z.enum(EVENT_TYPES) })) }),
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const { projectId, visitorId } = request.params;
      const who = await openProject(deps, request, projectId);
      const target = await resolveEventCollection(deps, who, projectId, request.body.collectionName);
      await limitKiosk(deps, request, who, target.scope.collection);
      const found = await firstVisitor(deps, target.visitorScopes, visitorId);
      const { visitor, userId } = await authorizeVisitor(deps, request, who, found?.visitor ?? null, found?.scope.collection ?? '', 'update');
      if (visitor.deletedAt !== undefined || !found) throw visitorsError('VISITORS_NOT_FOUND', { message: 'Visitor is deleted' });
      // The event updates its visitor: a visitor of a localOnly type takes no writes.
      if (target.localOnlyVisitorCollections.has(found.scope.collection)) throw documentError('DATA_LOCAL_ONLY_TYPE');
      const now = deps.clock();
      const access = target.type.defaultAccess ? { access: target.type.defaultAccess } : {};
      const fields = clientFields(deps.data.limits, request.body.data, SERVER_EVENT_FIELDS, target.type, { serverFields: { visitorId: visitor.id, timestamp: now, ...access }, maxBytes: publicDataLimit(deps, who) });
      const preference = await deps.ledger.preferenceOf(found.scope, visitor.id);
      // A visit restarts the retention period the visitor chose (as the server recorded it).
      const retention = preference === undefined ? undefined : retentionFields(now, preference);
      const eventType = request.body.data.eventType;
      const eventId = randomUUID();
      // One write of the event binding's quota: the visitor's update and its event.
      const event = await withinDailyQuota(deps, who, target.scope.collection, async () => {
        // The visitor first, then its event: when the visitor's update gives up (503 VISITORS_BUSY,
        // others changing it all along), no event is stored, so the kiosk's retry records the visit once.
        await deps.records.update(
          found.scope,
          visitor.id,
          userId,
          (current) => {
            if (current.deletedAt !== undefined) throw visitorsError('VISITORS_NOT_FOUND', { message: 'Visitor is deleted' });
            return storableSet(deps.data.limits, current, { latestEventType: eventType, latestEventAt: now, ...retention });
          },
          {
            preceding: async (section) => {
              if (retention) await deps.ledger.reschedule(found.scope, visitor.id, retention, section);
            },
            traceContext: requestTraceContext(request),
          },
        );
        // Events of a visitor the service manages are erased with it; recorded with (before) them.
        return deps.records.create(target.scope, { ...fields, visitorId: visitor.id, timestamp: now }, {
          id: eventId,
          userId,
          defaultAccess: target.type.defaultAccess,
          traceContext: requestTraceContext(request),
          preceding: async (section) => {
            if (preference !== undefined) await deps.ledger.recordEvent(target.scope, eventId, found.scope, visitor.id, section);
          },
        });
      });
      return reply.code(201).send({ id: event.id });
    },
  );
}

/** The visitor in the first of the event type's visitor collections that holds it. */
async function firstVisitor(deps: VisitorsDeps, scopes: Array<import('@platform/documents').EntityScope>, visitorId: string) {
  for (const scope of scopes) {
    const visitor = await deps.records.find(scope, visitorId);
    if (visitor) return { scope, visitor };
  }
  return undefined;
}
