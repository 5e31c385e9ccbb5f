import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { numberText, requestTraceContext } from '@platform/kit';
import { ID_PATTERN, RESERVED_SCHEMA_FIELD_NAMES, checkNewFields, currentTypeSchema, typeIdSchema, TypeDirectory, publicView, validateWithinBudget, type DataDeps, type SchemaProblem } from '@platform/documents';
import { dataError } from '../errors';
import { ESTIMATE_NODE_BUDGET, generateSamples, SampleDataInvalidError, SampleDataTooLargeError, SampleSchemaTooComplexError } from '../domain/sample-data';
import { checkedTypeSchema } from './checked-type-schema';

const params = z.object({ projectId: z.string().regex(ID_PATTERN), typeId: typeIdSchema });
const schemaResponse = z.object({
  projectId: z.string(),
  typeId: z.string(),
  schema: z.object({ type: z.literal('object') }).loose().describe("The type's JSON Schema (draft 2020-12); a type stored in the old dialect answers its JSON Schema equivalent"),
});
/** A type without a schema takes any document. */
const ANY_DOCUMENT = { type: 'object' } as const;

/**
 * The spec fixes the unauthenticated answer of these four routes: 401 with the JSON string
 * "Unauthorized" (not our usual error object).
 */
function refuseAnonymous(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.principal.kind === 'user') return false;
  void reply.code(401).type('application/json').send(JSON.stringify('Unauthorized'));
  return true;
}

/**
 * Refuses samples that carry a reserved field (access, server-owned or visitor fields). The schema
 * rules refuse declaring one, but a schema can still produce it (through `required` with
 * additionalProperties, a root `$ref`, a whole-document enum): sample documents are written
 * without the client checks of POST .../data, so they may never set what only the server or the
 * project's updaters set.
 */
function refuseReservedFields(samples: Array<Record<string, unknown>>): void {
  const reserved = samples.flatMap((sample) => Object.keys(sample)).find((name) => RESERVED_SCHEMA_FIELD_NAMES.has(name));
  if (reserved === undefined) return;
  throw dataError('DATA_TYPE_SCHEMA_INVALID', { message: `Invalid schema: its documents would carry ${reserved}, which is reserved for the server and row-level security`, details: { field: 'schema' } });
}

/**
 * Refuses a sample whose field names POST .../data would refuse (a dotted name, a `$` or `_` one,
 * by the same check): a whole-document `const` or `enum` spells any names, and a stored sample
 * would hold fields no client could write, which its history would not replay as stored.
 */
function refuseUnwritableNames(sample: Record<string, unknown>): void {
  // As POST .../data: an empty document has no names to check.
  if (Object.keys(sample).length === 0) return;
  const [problem] = checkNewFields(sample, 'document', { allowAccess: true });
  if (problem === undefined) return;
  throw dataError('DATA_TYPE_SCHEMA_INVALID', { message: `Invalid schema: its documents would carry ${problem.path}, which POST .../data refuses (${problem.message})`, details: { field: 'schema', path: problem.path } });
}

/** A sample checked as POST .../data checks a document (the type's stored schema, its validator, the validation time and pattern work limits), after the reserved-field and field-name checks. */
function sampleValidator(deps: DataDeps, stored: unknown): (sample: Record<string, unknown>) => SchemaProblem[] {
  return (sample) => {
    refuseReservedFields([sample]);
    refuseUnwritableNames(sample);
    return validateWithinBudget(stored, sample, deps.limits);
  };
}

/**
 * Sample documents from a type's stored schema, re-checked first; refused when the answer would
 * pass its cap, when sizing or generating them takes too much work, when no generated document
 * satisfies the schema (each is validated as POST .../data validates a document) or when one
 * would carry a reserved field.
 */
function samplesFor(deps: DataDeps, stored: unknown, count: number, seed: number | undefined): Array<Record<string, unknown>> {
  const schema = checkedTypeSchema(stored ?? ANY_DOCUMENT, 'schema');
  const limitBytes = deps.limits.maxSampleDataBytes;
  let samples: Array<Record<string, unknown>>;
  try {
    samples = generateSamples(schema, { count, seed: seed ?? deps.clock(), limitBytes, validate: sampleValidator(deps, stored ?? ANY_DOCUMENT) });
  } catch (error) {
    if (error instanceof SampleDataTooLargeError) {
      throw dataError('DATA_SAMPLE_DATA_TOO_LARGE', { message: `${count} sample documents of this type would be larger than ${limitBytes} bytes; ask for fewer`, details: { count, limit: limitBytes } });
    }
    if (error instanceof SampleSchemaTooComplexError) {
      const message =
        error.reason === 'nodes'
          ? `Sample documents of this type cannot be sized within ${ESTIMATE_NODE_BUDGET} schema nodes (its references branch too much); simplify the schema`
          : `Generating ${count} sample documents of this type took longer than ${error.limit} ms; ask for fewer or simplify the schema`;
      throw dataError('DATA_SAMPLE_SCHEMA_TOO_COMPLEX', { message, details: { reason: error.reason, limit: error.limit } });
    }
    if (error instanceof SampleDataInvalidError) {
      const [problem] = error.problems;
      const field = problem?.field ?? 'body';
      throw dataError('DATA_SAMPLE_DATA_INVALID', {
        message: `Sample data cannot be generated for this type: after ${error.attempts} attempts the generated ${field} still fails the schema (${problem?.message ?? 'invalid'}); loosen or simplify that field's schema`,
        details: { field, attempts: error.attempts, problems: error.problems },
      });
    }
    throw error;
  }
  refuseReservedFields(samples);
  return samples;
}

/**
 * Type schema and sample data: GET .../schema, GET /api/schemas/..., GET and POST .../sample-data.
 * The type's `read` rule guards all four, as it guards the type's documents.
 */
export async function registerSchemaRoutes(app: FastifyInstance, deps: DataDeps): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const unauthorized = { 401: z.literal('Unauthorized') };

  const readSchema = async (request: FastifyRequest<{ Params: z.infer<typeof params> }>, reply: FastifyReply) => {
    if (refuseAnonymous(request, reply)) return reply;
    const { projectId, typeId } = request.params;
    const { caller } = await deps.projects.require(projectId, request.principal);
    const type = await deps.types.requireReadable(projectId, typeId, caller);
    return { projectId, typeId, schema: currentTypeSchema(type.schema) ?? ANY_DOCUMENT };
  };
  const schemaRoute = { tags: ['types'], summary: "The type's JSON Schema", params, response: { 200: schemaResponse, ...unauthorized } };
  typed.get('/api/projects/:projectId/types/:typeId/schema', { schema: schemaRoute }, readSchema);
  typed.get('/api/schemas/projects/:projectId/types/:typeId', { schema: schemaRoute }, readSchema);

  typed.get(
    '/api/projects/:projectId/types/:typeId/sample-data',
    {
      schema: {
        tags: ['types'],
        summary: 'Realistic sample documents generated from the type schema (nothing is stored)',
        params,
        querystring: z.object({ count: numberText(z.coerce.number().int().min(1).max(100).default(5)), seed: numberText(z.coerce.number().int().min(0)).optional() }),
        response: { 200: z.object({ items: z.array(z.record(z.string(), z.unknown())) }), ...unauthorized },
      },
    },
    async (request, reply) => {
      if (refuseAnonymous(request, reply)) return reply;
      const { projectId, typeId } = request.params;
      const { caller } = await deps.projects.require(projectId, request.principal);
      const type = await deps.types.requireReadable(projectId, typeId, caller);
      return { items: samplesFor(deps, type.schema, request.query.count, request.query.seed) };
    },
  );

  typed.post(
    '/api/projects/:projectId/types/:typeId/sample-data',
    {
      schema: {
        tags: ['types'],
        summary: 'Create sample documents from the type schema',
        params,
        body: z.object({ count: z.number().int().min(1).max(100).default(5), seed: z.number().int().min(0).optional() }).strict().default({ count: 5 }),
        response: { 201: z.object({ items: z.array(z.record(z.string(), z.unknown())) }), ...unauthorized },
      },
    },
    async (request, reply) => {
      if (refuseAnonymous(request, reply)) return reply;
      const { projectId, typeId } = request.params;
      const { caller } = await deps.projects.require(projectId, request.principal);
      const type = await deps.types.requireReadable(projectId, typeId, caller);
      if (type.syncType === 'localOnly') throw dataError('DATA_LOCAL_ONLY_TYPE');
      const scope = TypeDirectory.documentsScope(projectId, typeId);
      const samples = samplesFor(deps, type.schema, request.body.count, request.body.seed);
      const created = [];
      for (const sample of samples) created.push(publicView(await deps.writer.create(scope, sample, { userId: caller.userId, defaultAccess: type.defaultAccess, traceContext: requestTraceContext(request) })));
      return reply.code(201).send({ items: created });
    },
  );
}
