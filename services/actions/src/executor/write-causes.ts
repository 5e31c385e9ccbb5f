import type { DocumentStore } from '@platform/storage';

/** The collection where earlier versions kept the depth of action writes (see pruneLegacyWriteCauses). */
export const LEGACY_WRITE_CAUSES_COLLECTION = 'action-write-causes';

/** Records older than this are dropped: their events were handled long before. */
const LEGACY_CAUSE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Before a write carried its depth to its event (`actionDepth`, docs/actions.md, Loop guard), the
 * update-database block recorded it in `action-write-causes` by the event's message id, and a
 * concurrent run's record could be overwritten or removed by another's failure (the loop guard
 * then read depth 0 and a two-block action ran forever). Nothing reads or writes that collection
 * now; what earlier versions left there (during a rolling upgrade, replicas of both may run) is
 * removed once a day old, when the service starts.
 */
export async function pruneLegacyWriteCauses(store: DocumentStore, clock: () => number): Promise<number> {
  return store.collection(LEGACY_WRITE_CAUSES_COLLECTION).deleteMany({ createdAt: { $lt: clock() - LEGACY_CAUSE_RETENTION_MS } });
}
