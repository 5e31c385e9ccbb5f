import type { Access } from '@platform/contracts';
import { AppError, rlsAllows, type ProjectCaller, type TraceContext } from '@platform/kit';
import { ID_PATTERN, accessFieldsOf, assertAccessRules, assertWithinLimits, badModifier, checkNewFields, schemaViolation, type DataDeps, type ResolvedKind, type StoredEntity } from '@platform/documents';
import { z } from 'zod';
import { dataError } from '../errors';

export const entityIdSchema = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

/** Who writes, into which resolved collection: what every create and delete below needs. */
export interface EntityWriteContext {
  deps: DataDeps;
  resolved: ResolvedKind;
  caller: ProjectCaller;
  /** The project's own access rules (writing `access` needs its update permission). */
  projectAccess: Access | undefined;
  /** The request's trace, which the write's store and outbox spans join. */
  traceContext?: TraceContext;
}

/**
 * Every create of an entity, whoever makes it (`POST .../data`, one create of a bulk request):
 * the client's id and fields pass the client rules, the limits and the collection's validation,
 * then the write. `bodyPath` names where the fields came from in error messages (`body`, `fields`).
 */
export async function createEntity({ deps, resolved, caller, projectAccess, traceContext }: EntityWriteContext, body: Record<string, unknown>, bodyPath: string): Promise<StoredEntity> {
  if (resolved.refuseWrites) throw resolved.refuseWrites;
  const { id, ...fields } = body;
  if (id !== undefined) {
    const idCheck = (resolved.idSchema ?? entityIdSchema).safeParse(id);
    if (!idCheck.success) {
      // The shape of every other VALIDATION_FAILED (the kit's schema errors): the field and its message in details.issues.
      const issue = { field: `${bodyPath}.id`, message: idCheck.error.issues[0]?.message ?? 'invalid id' };
      throw new AppError(400, 'VALIDATION_FAILED', `Invalid ${issue.field}: ${issue.message}`, { issues: [issue] });
    }
  }
  if (Object.keys(fields).length) {
    const problems = checkNewFields(fields, bodyPath, { allowAccess: rlsAllows(projectAccess, 'update', caller), serverOwned: resolved.serverOwnedFields, jsonSchemaFields: resolved.jsonSchemaFields });
    if (problems.length) throw badModifier(problems);
  }
  assertWithinLimits(deps.limits, fields, Object.keys(fields));
  assertAccessRules(fields, accessFieldsOf(resolved.scope.typeId));
  const problems = resolved.validate(fields);
  if (problems.length) throw schemaViolation(problems);
  if (id !== undefined) await resolved.checkNewId?.(id as string);
  return deps.writer.create(resolved.scope, resolved.prepare?.(fields) ?? fields, { userId: caller.userId, id: id as string | undefined, defaultAccess: resolved.defaultAccess, traceContext, reader: caller });
}

/** How often a delete reads its entity again when a write landed between its read and its own write. */
const DELETE_ATTEMPTS = 5;

/**
 * Every soft delete of an entity (`DELETE .../data/{id}`, one delete of a bulk request). A delete
 * takes no base revision: a write that lands between its read and its own is no conflict of the
 * caller's, so the entity is read again and the checks decided again on what it now is (a write
 * that took the caller's read access makes it a 404, their delete access a 403). Until 2026-12-07
 * such a delete answered the guarded write's 409, whose details held the entity as that write left
 * it, to a caller who might no longer read it.
 */
export async function removeEntity({ deps, resolved, caller, traceContext }: EntityWriteContext, id: string): Promise<StoredEntity> {
  if (resolved.refuseWrites) throw resolved.refuseWrites;
  for (let attempt = 1; ; attempt += 1) {
    const entity = await deps.reader.readable(resolved.scope, id, caller);
    if (entity.deletedAt !== undefined) throw dataError('DATA_ENTITY_NOT_FOUND', { message: 'Entity is already deleted' });
    const mayDelete = resolved.mayDelete ? resolved.mayDelete(entity) : rlsAllows(entity.access, 'delete', caller);
    if (!mayDelete) throw dataError('DATA_FORBIDDEN', { message: 'You may not delete this entity' });
    try {
      return await deps.writer.remove(resolved.scope, entity, caller.userId, { traceContext, reader: caller });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'DATA_REVISION_CONFLICT')) throw error;
      if (attempt === DELETE_ATTEMPTS) throw dataError('DATA_REVISION_CONFLICT', { message: 'The entity kept changing while it was being deleted; delete it again' });
    }
  }
}
