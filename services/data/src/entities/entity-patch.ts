import type { Access } from '@platform/contracts';
import { AppError, rlsAllows, type ProjectCaller } from '@platform/kit';
import { applyUpdate, type UpdateModifier } from '@platform/storage';
import { changesOnlyAccess } from '../domain/deleted-entity-rules';
import { checkClientModifier, type ModifierProblem } from '../domain/modifier-rules';
import { dataError } from '../errors';
import type { DataDeps } from '../routes/context';
import type { ResolvedKind } from '../routes/entity-routes';
import type { StoredEntity } from './entity';

export function badModifier(problems: ModifierProblem[]): AppError {
  const first = problems[0] as ModifierProblem;
  return dataError('DATA_INVALID_MODIFIER', { message: `Invalid ${first.path}: ${first.message}`, details: { problems } });
}

export function schemaViolation(problems: Array<{ field: string; message: string }>): AppError {
  const first = problems[0] as { field: string; message: string };
  return dataError('DATA_SCHEMA_VIOLATION', { message: `Invalid ${first.field}: ${first.message}`, details: { problems } });
}

/** Fields of an entity as its schema sees them: without server-owned and internal ones. */
function ownFields(entity: Record<string, unknown>): Record<string, unknown> {
  const { id, revision, createdAt, updatedAt, deletedAt, changes, ...fields } = entity;
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !key.startsWith('_')));
}

export interface PatchRequest {
  id: string;
  /** Untrusted: checked here before anything is written. */
  modifier: unknown;
  baseRevision: number;
  caller: ProjectCaller;
  /** The project's own access rules (changing `access` needs its update permission). */
  projectAccess: Access | undefined;
}

/**
 * Every patch of an entity, whoever makes it (the PATCH route, the actions executor): the entity
 * must be readable and not deleted (a deleted one takes only a change of its `access`), the caller
 * needs its update permission, the modifier passes the client rules, and when it would apply now,
 * the result passes the collection's validation. Then the guarded write (409 with conflict details
 * when `baseRevision` is stale).
 */
export async function patchEntity(deps: DataDeps, resolved: ResolvedKind, request: PatchRequest): Promise<StoredEntity> {
  if (resolved.refuseWrites) throw resolved.refuseWrites;
  const { caller } = request;
  const entity = await deps.reader.readable(resolved.scope, request.id, caller);
  // A deleted entity keeps its content: its access may still change, so it can be restricted.
  if (entity.deletedAt !== undefined && !changesOnlyAccess(request.modifier)) throw dataError('DATA_ENTITY_NOT_FOUND', { message: 'Entity is deleted' });
  if (!rlsAllows(entity.access, 'update', caller)) throw dataError('DATA_FORBIDDEN', { message: 'You may not update this entity' });
  const problems = checkClientModifier(request.modifier, { allowAccess: rlsAllows(request.projectAccess, 'update', caller), serverOwned: resolved.serverOwnedFields });
  if (problems.length) throw badModifier(problems);
  const modifier = request.modifier as UpdateModifier;
  if (entity.revision === request.baseRevision) {
    let after: Record<string, unknown>;
    try {
      after = applyUpdate(entity as Record<string, unknown>, modifier);
    } catch (error) {
      throw badModifier([{ path: 'modifier', message: (error as Error).message }]);
    }
    const violations = resolved.validate(ownFields(after));
    if (violations.length) throw schemaViolation(violations);
  }
  return deps.writer.patch(resolved.scope, entity.id, modifier, { userId: caller.userId, baseRevision: request.baseRevision });
}
