import { RETENTION_USER_ID } from '@platform/contracts';
import { AppError, type Logger } from '@platform/kit';
import { type DataDeps, type StoredEntity } from '@platform/documents';
import { erasureModifier } from '../domain/retention-rules';
import { recordScope } from '../visitors/visitor-records';
import type { VisitorSecrets } from '../visitors/visitor-secrets';
import { adoptLegacyVisitors } from './legacy-visitors';
import type { LedgerEntry, RetentionLedger } from './retention-ledger';

/** The author of retention changes in history, events and the audit trail (a contract: audit recognises erasures by it). */
export { RETENTION_USER_ID };

const BATCH = 200;
const CONFLICT_RETRIES = 5;

export interface RetentionResult {
  visitors: number;
  events: number;
}

/**
 * Erases every visitor the ledger says is due, with all its events. Only documents the visitors
 * service created through its own routes are in the ledger, and only the server writes their
 * erasure dates there, so no member's write to a document can schedule an erasure. Erasure is a
 * hard delete of the personal data: one change removes every personal field and marks the record
 * deleted (a `deleted` document event, so the audit trail records who and when, as
 * `system:retention`), then the record's earlier history, which still holds those fields, is
 * deleted. A content-free tombstone (id, revision, timestamps, deletedAt) stays so syncing
 * clients drop their copy.
 */
export class RetentionJob {
  constructor(
    private readonly data: DataDeps,
    private readonly ledger: RetentionLedger,
    private readonly secrets: VisitorSecrets,
    private readonly clock: () => number,
    private readonly logger: Logger,
  ) {}

  async run(): Promise<RetentionResult> {
    const adopted = await adoptLegacyVisitors(this.data, this.ledger);
    if (adopted.visitors > 0) this.logger.info({ ...adopted }, 'visitors checked in before the retention ledger are scheduled now');
    const now = this.clock();
    const result: RetentionResult = { visitors: 0, events: 0 };
    const failed: string[] = [];
    for (;;) {
      const due = await this.ledger.due(now, BATCH, failed);
      for (const visitor of due) {
        try {
          for (const event of await this.ledger.eventsOf(visitor)) {
            if (await this.erase(event, now)) result.events += 1;
            await this.ledger.forget(event);
          }
          if (await this.erase(visitor, now)) result.visitors += 1;
          await this.secrets.revoke(visitor.collection, visitor.entityId);
          await this.ledger.forget(visitor);
        } catch (error) {
          failed.push(visitor.id);
          this.logger.error({ err: error, collection: visitor.collection, id: visitor.entityId }, 'retention could not erase a visitor; next run retries');
        }
      }
      if (due.length < BATCH) break;
    }
    this.logger.info({ ...result }, 'visitor retention run finished');
    return result;
  }

  /** Erases the entry's document; answers false when it is gone already. */
  private async erase(entry: LedgerEntry, now: number): Promise<boolean> {
    const scope = recordScope(entry.projectId, entry.typeId);
    const documents = this.data.store.collection<StoredEntity>(scope.collection);
    let current = await documents.findById(entry.entityId, { projection: { _outbox: 0 } });
    if (!current) return false;
    for (let attempt = 0; current && attempt < CONFLICT_RETRIES; attempt += 1) {
      try {
        const erased = await this.data.writer.patch(scope, current.id, erasureModifier(current, now), { userId: RETENTION_USER_ID, baseRevision: current.revision });
        await this.data.history.erase(scope.collection, current.id, erased.revision);
        return true;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'DATA_REVISION_CONFLICT')) throw error;
        current = await documents.findById(entry.entityId, { projection: { _outbox: 0 } });
      }
    }
    if (current) throw new Error(`${scope.collection}/${entry.entityId} kept changing; not erased`);
    return false;
  }
}
