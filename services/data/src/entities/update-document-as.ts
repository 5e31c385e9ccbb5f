import { rlsAllows } from '@platform/kit';
import type { UpdateModifier } from '@platform/storage';
import { checkClientModifier } from '../domain/modifier-rules';
import { applyModifier } from '../domain/paths';
import { validateDocument } from '../domain/type-schema';
import { dataError } from '../errors';
import type { DataDeps } from '../routes/context';
import type { StoredEntity } from './entity';
import { TypeDirectory } from './type-directory';

export interface DocumentUpdateRequest {
  projectId: string;
  typeId: string;
  id: string;
  modifier: unknown;
  /** The write applies only while the document is still at this revision (409 otherwise). */
  baseRevision: number;
  /** The user the write is made as: RLS is evaluated for them and the change carries their id. */
  userId: string;
}

/**
 * A document PATCH made by the server on a user's behalf (the actions executor): the same rules as
 * the PATCH route (membership, RLS update, modifier rules, type schema, localOnly, baseRevision)
 * and the same write path (history, outbox, event). Throws the data service's AppErrors.
 */
export async function updateDocumentAs(deps: DataDeps, request: DocumentUpdateRequest): Promise<StoredEntity> {
  const { project, caller } = await deps.projects.require(request.projectId, { kind: 'user', userId: request.userId, sessionId: 'server', platformOwner: false });
  const type = await deps.types.require(request.projectId, request.typeId);
  if (type.syncType === 'localOnly') throw dataError('DATA_LOCAL_ONLY_TYPE');
  const scope = TypeDirectory.documentsScope(request.projectId, request.typeId);
  const entity = await deps.reader.readable(scope, request.id, caller);
  if (entity.deletedAt !== undefined) throw dataError('DATA_ENTITY_NOT_FOUND', { message: 'Entity is deleted' });
  if (!rlsAllows(entity.access, 'update', caller)) throw dataError('DATA_FORBIDDEN', { message: 'You may not update this entity' });
  const problems = checkClientModifier(request.modifier, { allowAccess: rlsAllows(project.access, 'update', caller) });
  if (problems.length) {
    const first = problems[0] as { path: string; message: string };
    throw dataError('DATA_INVALID_MODIFIER', { message: `Invalid ${first.path}: ${first.message}`, details: { problems } });
  }
  const modifier = request.modifier as UpdateModifier;
  if (entity.revision === request.baseRevision) {
    const { id, revision, createdAt, updatedAt, deletedAt, ...fields } = applyModifier(entity as Record<string, unknown>, modifier);
    const violations = validateDocument(type.schema, fields);
    if (violations.length) {
      const first = violations[0] as { field: string; message: string };
      throw dataError('DATA_SCHEMA_VIOLATION', { message: `Invalid ${first.field}: ${first.message}`, details: { problems: violations } });
    }
  }
  return deps.writer.patch(scope, entity.id, modifier, { userId: request.userId, baseRevision: request.baseRevision });
}
