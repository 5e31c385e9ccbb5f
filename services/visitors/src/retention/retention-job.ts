import { AppError, type Logger } from '@platform/kit';
import { type DataDeps, type EntityScope, type StoredEntity } from '@platform/data';
import { erasureModifier } from '../domain/retention-rules';
import { recordScope } from '../visitors/visitor-records';
import type { VisitorCollections } from '../visitors/visitor-collections';
import type { VisitorSecrets } from '../visitors/visitor-secrets';

/** The author of retention changes in history, events and the audit trail. */
export const RETENTION_USER_ID = 'system:retention';

const BATCH = 200;
const CONFLICT_RETRIES = 5;

export interface RetentionResult {
  visitors: number;
  events: number;
}

/**
 * Erases every visitor whose `deleteOn` has passed, with all its events. Erasure is a hard delete
 * of the personal data: one change removes every personal field and marks the record deleted (a
 * `deleted` document event, so the audit trail records who and when, as `system:retention`), then
 * the record's earlier history, which still holds those fields, is deleted. A content-free
 * tombstone (id, revision, timestamps, deletedAt) stays so syncing clients drop their copy.
 */
export class RetentionJob {
  constructor(
    private readonly data: DataDeps,
    private readonly collections: VisitorCollections,
    private readonly secrets: VisitorSecrets,
    private readonly clock: () => number,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<RetentionResult> {
    const now = this.clock();
    const result: RetentionResult = { visitors: 0, events: 0 };
    for (const record of await this.collections.all()) {
      const visitors = recordScope(record.projectId, record.typeId);
      const eventScopes = (record.eventScopes ?? []).map(({ typeId }) => recordScope(record.projectId, typeId));
      const failed = new Set<string>();
      for (;;) {
        const expired = await this.data.store
          .collection<StoredEntity>(visitors.collection)
          .find({ deleteOn: { $lte: now }, id: { $nin: [...failed] } }, { limit: BATCH, projection: { _outbox: 0 } });
        for (const visitor of expired) {
          try {
            for (const events of eventScopes) result.events += await this.eraseEventsOf(events, visitor.id, now);
            await this.erase(visitors, visitor, now);
            await this.secrets.revoke(visitors.collection, visitor.id);
            result.visitors += 1;
          } catch (error) {
            failed.add(visitor.id);
            this.logger.error({ err: error, collection: visitors.collection, id: visitor.id }, 'retention could not erase a visitor; next run retries');
          }
        }
        if (expired.length < BATCH) break;
      }
    }
    this.logger.info({ ...result }, 'visitor retention run finished');
    return result;
  }

  private async eraseEventsOf(scope: EntityScope, visitorId: string, now: number): Promise<number> {
    const events = await this.data.store.collection<StoredEntity>(scope.collection).find({ visitorId }, { projection: { _outbox: 0 } });
    for (const event of events) await this.erase(scope, event, now);
    return events.length;
  }

  private async erase(scope: EntityScope, entity: StoredEntity, now: number): Promise<void> {
    let current: StoredEntity | null = entity;
    for (let attempt = 0; current && attempt < CONFLICT_RETRIES; attempt += 1) {
      try {
        const erased = await this.data.writer.patch(scope, current.id, erasureModifier(current, now), { userId: RETENTION_USER_ID, baseRevision: current.revision });
        await this.data.history.erase(scope.collection, current.id, erased.revision);
        return;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'DATA_REVISION_CONFLICT')) throw error;
        current = await this.data.store.collection<StoredEntity>(scope.collection).findById(current.id, { projection: { _outbox: 0 } });
      }
    }
    if (current) throw new Error(`${scope.collection}/${entity.id} kept changing; not erased`);
  }
}
