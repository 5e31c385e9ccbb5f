import { isDeepStrictEqual } from 'node:util';
import type { Access } from '@platform/contracts';
import { AppError, rlsAllows, type ProjectCaller } from '@platform/kit';
import { applyUpdate, type UpdateModifier } from '@platform/storage';
import type { TraceContext } from '@platform/telemetry';
import { accessRuleProblems } from '../domain/access-rules';
import { arrayGrowthProblem } from '../domain/array-growth';
import type { ConflictDetailsGate } from '../domain/conflict';
import { changesOnlyAccess } from '../domain/deleted-entity-rules';
import { indexBeyondLimit, limitProblem, type DocumentLimits, type LimitProblem } from '../domain/document-limits';
import { checkClientModifier, touchedPaths, type ModifierProblem } from '../domain/modifier-rules';
import { targetTypeProblems } from '../domain/modifier-targets';
import { accessFieldsOf } from '../domain/scoped-access';
import { documentError } from '../errors';
import type { DataDeps } from '../data-deps';
import type { ResolvedKind } from './entity-kind';
import type { ActionCause, StoredEntity } from './entity';

export function badModifier(problems: ModifierProblem[]): AppError {
  const first = problems[0] as ModifierProblem;
  return documentError('DATA_INVALID_MODIFIER', { message: `Invalid ${first.path}: ${first.message}`, details: { problems } });
}

export function schemaViolation(problems: Array<{ field: string; message: string }>): AppError {
  const first = problems[0] as { field: string; message: string };
  return documentError('DATA_SCHEMA_VIOLATION', { message: `Invalid ${first.field}: ${first.message}`, details: { problems } });
}

/** Throws 400 naming the first unknown key or bad value when an access configuration the write stores is no valid rule set. */
export function assertAccessRules(fields: Record<string, unknown>, fieldNames: readonly string[]): void {
  const problems = accessRuleProblems(fields, fieldNames);
  if (!problems.length) return;
  const first = problems[0] as { field: string; message: string };
  throw documentError('DATA_INVALID_ACCESS', { message: `Invalid ${first.field}: ${first.message}`, details: { field: first.field, problems } });
}

const LIMIT_CODES = { array: 'DATA_ARRAY_TOO_LONG', depth: 'DATA_DOCUMENT_TOO_DEEP', number: 'DATA_NUMBER_OUT_OF_RANGE', size: 'DATA_DOCUMENT_TOO_LARGE' } as const;

function limitExceeded({ kind, field, message, ...numbers }: LimitProblem): AppError {
  return documentError(LIMIT_CODES[kind], { message: `Invalid ${field}: ${message}`, details: { field, ...numbers } });
}

/** Throws 400 when an entity's fields, as they would be stored, break the size, array or depth limits or hold a non-finite number; `changed` are the fields the write sets. */
export function assertWithinLimits(limits: DocumentLimits, fields: Record<string, unknown>, changed: readonly string[]): void {
  const problem = limitProblem(fields, limits, changed);
  if (problem) throw limitExceeded(problem);
}

/** Fields of an entity as its schema sees them: without server-owned and internal ones. */
function ownFields(entity: Record<string, unknown>): Record<string, unknown> {
  const { id, revision, createdAt, updatedAt, deletedAt, changes, ...fields } = entity;
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !key.startsWith('_')));
}

/** The modifier that turns `before` into `after`, top-level field by field (for fields the kind normalized after the client's modifier). */
function replacingModifier(before: Record<string, unknown>, after: Record<string, unknown>): UpdateModifier {
  const set = Object.fromEntries(Object.entries(after).filter(([name, value]) => !isDeepStrictEqual(before[name], value)));
  const unset = Object.fromEntries(Object.keys(before).filter((name) => !Object.hasOwn(after, name)).map((name) => [name, '']));
  return { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) } as UpdateModifier;
}

export interface PatchRequest {
  id: string;
  /** Untrusted: checked here before anything is written. */
  modifier: unknown;
  baseRevision: number;
  caller: ProjectCaller;
  /** The project's own access rules (changing `access` needs its update permission). */
  projectAccess: Access | undefined;
  /** The trace the write joins (the request's, or an action block's). */
  traceContext?: TraceContext;
  /** Set by the actions executor only: what the write's event carries (see ActionCause). */
  actionCause?: ActionCause;
  /** Set by a bulk request: whether a 409 may still compute its details (see EntityWriter.conflict). */
  mayExplainConflict?: ConflictDetailsGate;
}

/**
 * Every patch of an entity, whoever makes it (the PATCH route, the actions executor): the entity
 * must be readable and not deleted (a deleted one takes only a change of its `access`), the caller
 * needs its update permission, and the modifier passes the client rules. It must be sent for the
 * revision read here (409 otherwise): the result is checked on exactly that state (operand types,
 * size and array limits, the collection's validation), and the guarded write applies only while
 * the entity is still at it. A modifier that changes nothing answers the entity as it is, without
 * a write.
 */
export async function patchEntity(deps: DataDeps, resolved: ResolvedKind, request: PatchRequest): Promise<StoredEntity> {
  if (resolved.refuseWrites) throw resolved.refuseWrites;
  const { caller } = request;
  const entity = await deps.reader.readable(resolved.scope, request.id, caller);
  // A deleted entity keeps its content: its access may still change, so it can be restricted.
  if (entity.deletedAt !== undefined && !changesOnlyAccess(request.modifier)) throw documentError('DATA_ENTITY_NOT_FOUND', { message: 'Entity is deleted' });
  const mayUpdate = resolved.mayUpdate ? resolved.mayUpdate(entity) : rlsAllows(entity.access, 'update', caller);
  if (!mayUpdate) throw documentError('DATA_FORBIDDEN', { message: 'You may not update this entity' });
  const problems = checkClientModifier(request.modifier, {
    allowAccess: rlsAllows(request.projectAccess, 'update', caller),
    serverOwned: resolved.serverOwnedFields,
    jsonSchemaFields: resolved.jsonSchemaFields,
  });
  if (problems.length) throw badModifier(problems);
  const modifier = request.modifier as UpdateModifier;
  // Before applying: the update engine would fill an array up to the index first.
  const farIndex = indexBeyondLimit(modifier, deps.limits.maxArrayLength);
  if (farIndex) throw limitExceeded(farIndex);
  // Before applying, a conflict's rebase included: the engine would fill every gap with nulls, and the limits would walk them all.
  const growth = arrayGrowthProblem(entity, modifier, deps.limits.maxArrayLength);
  if (growth) throw documentError('DATA_ARRAY_GROWTH_TOO_LARGE', { message: `Invalid ${growth.field}: ${growth.message}`, details: { field: growth.field, limit: growth.limit, elements: growth.elements } });
  // A baseRevision ahead of this read could be reached by another write before ours lands, and
  // the modifier would then apply to a state nobody checked.
  if (entity.revision !== request.baseRevision) throw await deps.writer.conflict(resolved.scope, entity, modifier, request.baseRevision, caller, request.mayExplainConflict);
  const mismatched = targetTypeProblems(entity, modifier);
  if (mismatched.length) throw badModifier(mismatched);
  let after: Record<string, unknown>;
  try {
    after = applyUpdate(entity as Record<string, unknown>, modifier);
  } catch (error) {
    throw badModifier([{ path: 'modifier', message: (error as Error).message }]);
  }
  const fields = ownFields(after);
  const touchedFields = touchedPaths(modifier).map((path) => path.split('.')[0] as string);
  assertWithinLimits(deps.limits, fields, touchedFields);
  // Only the access fields this patch changes: one stored before rules were strict does not block other changes.
  assertAccessRules(fields, accessFieldsOf(resolved.scope.typeId).filter((name) => touchedFields.includes(name)));
  const violations = resolved.validate(fields);
  if (violations.length) throw schemaViolation(violations);
  const prepared = resolved.prepare?.(fields) ?? fields;
  // A path through a JSON Schema's `$` keywords (`schema.$defs.address`) is no store path: the field is written whole.
  const storable = !touchedPaths(modifier).some((path) => path.split('.').some((segment) => segment.startsWith('$')));
  const written = prepared === fields && storable ? modifier : replacingModifier(ownFields(entity), prepared);
  if (isDeepStrictEqual(after, entity) && prepared === fields) return entity;
  return deps.writer.patch(resolved.scope, entity.id, written, { userId: caller.userId, baseRevision: request.baseRevision, traceContext: request.traceContext, reader: caller, actionCause: request.actionCause, mayExplain: request.mayExplainConflict });
}
