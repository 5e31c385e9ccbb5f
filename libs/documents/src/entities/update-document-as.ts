import type { TraceContext } from '@platform/telemetry';
import type { DataDeps } from '../data-deps';
import { documentsKind } from './entity-kinds';
import type { ActionCause, StoredEntity } from './entity';
import { patchEntity } from './entity-patch';

export interface DocumentUpdateRequest {
  projectId: string;
  typeId: string;
  id: string;
  modifier: unknown;
  /** The write applies only while the document is still at this revision (409 otherwise). */
  baseRevision: number;
  /** The user the write is made as: RLS is evaluated for them and the change carries their id. */
  userId: string;
  /** The trace the write joins (the action block's). */
  traceContext?: TraceContext;
  /**
   * A write made by an action: its depth in the chain of action writes (the writing run's depth
   * + 1) and the chain's id, carried on the write's outbox entry to its event, never into its history.
   */
  actionCause?: ActionCause;
}

/**
 * A document PATCH made by the server on a user's behalf (the actions executor): exactly the
 * PATCH route's rules and write path (`patchEntity`), with membership checked for that user.
 * Throws the data service's AppErrors.
 */
export async function updateDocumentAs(deps: DataDeps, request: DocumentUpdateRequest): Promise<StoredEntity> {
  const { project, caller } = await deps.projects.require(request.projectId, { kind: 'user', userId: request.userId, sessionId: 'server', platformOwner: false });
  const resolved = await documentsKind.resolve(deps, { projectId: request.projectId, typeId: request.typeId }, { caller, projectAccess: project.access });
  return patchEntity(deps, resolved, { id: request.id, modifier: request.modifier, baseRevision: request.baseRevision, caller, projectAccess: project.access, traceContext: request.traceContext, actionCause: request.actionCause });
}
