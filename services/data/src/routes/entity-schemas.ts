import { errorBodySchema, storedAccessSchema } from '@platform/contracts';
import { CLIENT_OPERATORS, ID_PATTERN } from '@platform/documents';
import { booleanFlag } from '@platform/kit';
import { z } from 'zod';

/** A boolean query parameter as the server reads it: `true`/`false`, or `1`/`0`. */
export const booleanQuery = booleanFlag.describe('true, false, 1 or 0');

const modifierSchema = z.record(z.string(), z.record(z.string(), z.unknown())).describe('The update modifier the change applied, e.g. { "$set": { "title": "x" } }');

/** One operator's paths: a non-empty object of dotted field paths. */
const operatorPaths = { type: 'object', minProperties: 1, additionalProperties: {} };

/**
 * A client's update modifier as the server checks it (modifier-rules.ts): at least one of the
 * shared operators, each a non-empty object of field paths. The handler's own check gives the
 * precise 400s (values per operator, system and access fields); this declares the shape, so a
 * client or fuzzer generated from the API description sends modifiers the server can take.
 */
export const modifierInputSchema = z
  .record(z.string(), z.unknown())
  .meta({ minProperties: 1, properties: Object.fromEntries([...CLIENT_OPERATORS].map((operator) => [operator, operatorPaths])), additionalProperties: false })
  .describe('Update operators ($set, $unset, $inc, $push, $pull, $addToSet, $rename, $min, $max, $mul), each an object of field paths, e.g. { "$set": { "title": "x" } }');

/**
 * POST's body: free JSON that the kind checks itself (so its 400s keep their codes), declared as
 * the kind's record schema when it has one (a type's or an agent's required name, ...) and with
 * the optional client-chosen `id`, so clients and fuzzers generated from the description send
 * entities the server can store.
 */
export function createBodySchema(bodySchema: z.ZodType | undefined, description: string): z.ZodType<Record<string, unknown>> {
  const { $schema: _, properties, ...declared } = (bodySchema ? z.toJSONSchema(bodySchema, { io: 'input', unrepresentable: 'any' }) : {}) as { $schema?: string; properties?: Record<string, unknown> };
  return z
    .record(z.string(), z.unknown())
    .meta({ ...declared, properties: { id: { type: 'string', pattern: ID_PATTERN.source, description: 'Generated when absent' }, ...properties } })
    .describe(description);
}

/** One entry of an entity's change history, oldest first; the creation has baseRevision -1. */
export const changeSchema = z
  .object({
    userId: z.string().describe('Who made the change'),
    timestamp: z.number().describe('When, Unix ms'),
    baseRevision: z.number().int().describe('The revision the change was made on; -1 for the creation'),
    modifier: modifierSchema,
  })
  .describe('One change of the entity: revision baseRevision + 1');

/** Changes a page of GET .../{id}/changes holds when `limit` is not given, and at most. */
export const CHANGES_PAGE_DEFAULT = 100;
export const CHANGES_PAGE_MAX = 1000;

/** A page of an entity's change history, newest first (GET .../{id}/changes). */
export const changesPageSchema = z.object({
  revision: z.number().int().describe("The entity's revision when the page was read"),
  items: z
    .array(changeSchema.extend({ revision: z.number().int().describe('The revision this change made: baseRevision + 1') }))
    .describe('Newest first: fromRevision, then the older ones, at most limit'),
  nextFromRevision: z.number().int().optional().describe('Present when older changes follow: pass it as fromRevision to read the next page'),
});

/** An entity's fields at one revision (GET .../{id}/revisions/{revision}). */
export const revisionStateSchema = z.object({
  revision: z.number().int().describe('The revision asked for'),
  state: z.record(z.string(), z.unknown()).describe("The entity's fields at that revision: its changes 0 to revision replayed in order"),
});

export const entitySchema = z
  .object({
    id: z.string(),
    revision: z.number().int(),
    createdAt: z.number(),
    updatedAt: z.number().describe('Unix ms of the last write; writes in one millisecond share it'),
    deletedAt: z.number().optional(),
    changes: z.array(changeSchema).optional().describe('The change history, oldest first (with includeChanges, and on writes)'),
  })
  .loose();

export const tombstoneSchema = z
  .object({ id: z.string(), revision: z.number().int(), createdAt: z.number(), updatedAt: z.number(), deletedAt: z.number(), access: storedAccessSchema.optional() })
  .strict()
  .describe('A deleted entity (tombstone): only these fields, never its content or changes, with or without includeChanges');

export const pageSchema = z.object({
  items: z
    .array(z.union([entitySchema.describe('A live entity; changes only with includeChanges'), tombstoneSchema]))
    .describe('In (updatedAt, id) order. A page never ends inside a millisecond: with more to come it holds at least limit items, then all that share its last updatedAt'),
  cursor: z
    .string()
    .optional()
    .describe('Present when more items follow; pass it back to continue. An optimisation: pulling again from the largest updatedAt of the page misses nothing either'),
  retryAfterMs: z
    .number()
    .int()
    .optional()
    .describe(
      'Pulls only (with updatedAt), on the last page: changes newer than this pull could read exist (written within the last moment, still settling); pull again from the largest updatedAt seen after this many milliseconds to get them',
    ),
  standing: z
    .string()
    .optional()
    .describe(
      "Pulls only (with updatedAt): a digest of the caller's standing in the project (its permissions, owner or tenant admin). When it differs from the previous pull's, access may have widened: entities whose updatedAt lies behind the cursor may now be readable, so pull again from updatedAt=0 (and ask .../readable about the copies held: access may have narrowed too)",
    ),
});

/** One path a conflicting modifier touches: the value at the client's base, on the server now, and what the client wanted. */
export const fieldConflictSchema = z.object({
  path: z.string().describe('The modifier path, e.g. title or address.city'),
  base: z.unknown().optional().describe('The value at the client’s baseRevision (absent: no value)'),
  theirs: z.unknown().optional().describe('The value on the server now (absent: no value)'),
  mine: z.unknown().optional().describe('The value the client’s modifier gives on its base (absent: removed)'),
  serverTouched: z.boolean().describe('Whether a change since the base touched this path (or one inside or around it)'),
});

export const conflictDetailsSchema = z.union([
  z
    .object({
      baseRevision: z.number().int(),
      currentRevision: z.number().int(),
      current: entitySchema.describe('The entity on the server now'),
      changesSince: z.array(changeSchema).describe('The changes after baseRevision, oldest first'),
      fields: z.array(fieldConflictSchema).describe('Per path the modifier touches: base, theirs and mine'),
    })
    .describe('The entity changed since baseRevision: resolve per field (Accept Theirs, Keep Mine) and retry on currentRevision'),
  z
    .object({ baseRevision: z.number().int(), currentRevision: z.number().int(), reason: z.literal('baseRevision does not exist') })
    .describe('baseRevision is negative or ahead of the entity'),
]);

/** The 409s of PATCH, told apart by `code`: a revision conflict with its details, or a localOnly type. */
export const patchConflictSchema = z.discriminatedUnion('code', [
  z.object({ error: z.string(), code: z.literal('DATA_REVISION_CONFLICT'), details: conflictDetailsSchema }).describe('Revision conflict'),
  errorBodySchema.extend({ code: z.literal('DATA_LOCAL_ONLY_TYPE') }).describe('The type is localOnly: the server stores none of its entities'),
]);
