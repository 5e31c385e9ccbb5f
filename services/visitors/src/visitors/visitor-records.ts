import { AppError, type TraceContext } from '@platform/kit';
import { documentsCollection, type DataDeps, type EntityScope, type PrecedingWrites, type StoredEntity } from '@platform/documents';
import type { Access } from '@platform/contracts';
import type { UpdateModifier } from '@platform/storage';
import { visitorsError } from '../errors';

const CONFLICT_RETRIES = 5;

export function recordScope(projectId: string, typeId: string): EntityScope {
  return { projectId, typeId, collection: documentsCollection(projectId, typeId) };
}

/**
 * Visitor and visitor-event records are documents of their types, so every write takes the data
 * service's writer: revision, change history, outbox and document events, exactly like a write
 * through the data routes (the audit trail and actions see them the same way).
 */
export class VisitorRecords {
  constructor(private readonly data: DataDeps) {}

  async find(scope: EntityScope, id: string): Promise<StoredEntity | null> {
    return this.data.store.collection<StoredEntity>(scope.collection).findById(id, { projection: { _outbox: 0 } });
  }

  /** `preceding`: the writes that belong to the record (its retention entry, its secret), in its atomic section; `traceContext`: the request's trace. */
  async create(scope: EntityScope, fields: Record<string, unknown>, options: { id: string; userId: string; defaultAccess?: Access; preceding?: PrecedingWrites; traceContext?: TraceContext }): Promise<StoredEntity> {
    return this.data.writer.create(scope, fields, options);
  }

  /**
   * Applies the modifier `change` builds from the current record. Kiosk clients do not track
   * revisions, so a concurrent change is answered by building the modifier again from the new state.
   */
  async update(scope: EntityScope, id: string, userId: string, change: (current: StoredEntity) => UpdateModifier, options: { preceding?: PrecedingWrites; traceContext?: TraceContext } = {}): Promise<StoredEntity> {
    for (let attempt = 0; attempt < CONFLICT_RETRIES; attempt += 1) {
      const current = await this.find(scope, id);
      if (!current) throw visitorsError('VISITORS_NOT_FOUND');
      try {
        return await this.data.writer.patch(scope, id, change(current), { userId, baseRevision: current.revision, ...options });
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'DATA_REVISION_CONFLICT')) throw error;
      }
    }
    throw visitorsError('VISITORS_BUSY');
  }
}
