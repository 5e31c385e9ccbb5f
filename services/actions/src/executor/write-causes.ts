import { documentEventId, type DocumentEvent } from '@platform/contracts';
import type { DocumentStore, StoredDocument } from '@platform/storage';

/** The collection where earlier versions kept the depth of action writes (see pruneLegacyWriteCauses). */
export const LEGACY_WRITE_CAUSES_COLLECTION = 'action-write-causes';

/** Records older than this are dropped: their events were handled long before. */
const LEGACY_CAUSE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Before a write carried its depth to its event (`actionDepth`, docs/actions.md, Loop guard), the
 * update-database block recorded it in `action-write-causes` by the event's message id, and a
 * concurrent run's record could be overwritten or removed by another's failure (the loop guard
 * then read depth 0 and a two-block action ran forever). Nothing writes that collection now, and
 * only LegacyWriteDepths reads it; what earlier versions left there (during a rolling upgrade,
 * replicas of both may run) is removed once a day old, when the service starts.
 */
export async function pruneLegacyWriteCauses(store: DocumentStore, clock: () => number): Promise<number> {
  return store.collection(LEGACY_WRITE_CAUSES_COLLECTION).deleteMany({ createdAt: { $lt: clock() - LEGACY_CAUSE_RETENTION_MS } });
}

/** A record of `action-write-causes` as versions before 2026-12-07 wrote it, keyed by the event's message id. */
interface LegacyWriteCause extends StoredDocument {
  /** The user the write was made as (the action's owner). */
  userId: string;
  /** The depth of the write's event: one more than the event that ran the writing action. */
  depth: number;
}

/**
 * The depth of events whose writes an earlier version made. Before a write carried its depth to
 * its event (`actionDepth`, docs/actions.md, Loop guard), update-database recorded it in
 * `action-write-causes` by the event's message id, and the executor looked it up there. An event
 * of such a write that was not handled when the earlier version stopped (left in the outbox by a
 * crash or by a stop that outlasted SHUTDOWN_DRAIN_MS, or not yet delivered to this replica in a
 * rolling upgrade) carries no `actionDepth`, and was taken for a person's write at depth 0: a
 * self-triggering action then ran its whole chain again after the upgrade.
 *
 * This gives such an event the recorded depth, as the earlier executor did (a record for the same
 * message id and author). It reads the collection only if it held records when the service
 * started (pruneLegacyWriteCauses removes them a day old), so once they are gone it costs nothing.
 */
export class LegacyWriteDepths {
  private constructor(
    private readonly store: DocumentStore,
    private readonly active: boolean,
  ) {}

  /** Looks once whether an earlier version left any record. */
  static async open(store: DocumentStore): Promise<LegacyWriteDepths> {
    const left = await store.collection(LEGACY_WRITE_CAUSES_COLLECTION).find({}, { limit: 1, projection: { id: 1 } });
    return new LegacyWriteDepths(store, left.length > 0);
  }

  /** The event with the depth an earlier version recorded for its write, when it has none of its own. */
  async complete(event: DocumentEvent): Promise<DocumentEvent> {
    if (!this.active || event.actionDepth !== undefined) return event;
    const cause = await this.store.collection<LegacyWriteCause>(LEGACY_WRITE_CAUSES_COLLECTION).findById(documentEventId(event.collection, event.entityId, event.revision));
    if (!cause || cause.userId !== event.change.userId || !Number.isInteger(cause.depth) || cause.depth < 1) return event;
    return { ...event, actionDepth: cause.depth };
  }
}
