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

/** Every soft delete of an entity (`DELETE .../data/{id}`, one delete of a bulk request). */
export async function removeEntity({ deps, resolved, caller, traceContext }: EntityWriteContext, id: string): Promise<StoredEntity> {
  if (resolved.refuseWrites) throw resolved.refuseWrites;
  const entity = await deps.reader.readable(resolved.scope, id, caller);
  if (entity.deletedAt !== undefined) throw dataError('DATA_ENTITY_NOT_FOUND', { message: 'Entity is already deleted' });
  const mayDelete = resolved.mayDelete ? resolved.mayDelete(entity) : rlsAllows(entity.access, 'delete', caller);
  if (!mayDelete) throw dataError('DATA_FORBIDDEN', { message: 'You may not delete this entity' });
  return deps.writer.remove(resolved.scope, entity, caller.userId, traceContext);
}
