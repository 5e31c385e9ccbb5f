import type { Logger } from '@platform/kit';
import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';
import type { TrailStore } from './trail-store';

/** The audit service's record of finished migrations, like the data service's `data-migrations`. */
const MIGRATIONS = 'audit-migrations';
const MIGRATION_ID = 'retention-erasures-marked';

interface MigrationRecord extends StoredDocument {
  finishedAt: number;
}

/**
 * Once per store: the visitor records that retention erased before the trail marked erasures
 * (versions before 2026-12-07) lose what their items kept of them, as those erased since do
 * (docs/audit.md, Erased by visitor retention): each earlier item's title, a copy of the visitor's
 * name or email, becomes the record's id, and a rebuild keeps those items. Without it an upgrade
 * left every such name in the trail's pages and exports. Safe to run again and from several
 * processes at once; a record of the finished run in `audit-migrations` spares later starts the scan.
 */
export async function markEarlierErasures(deps: { store: DocumentStore; trail: TrailStore; clock: () => number; logger: Logger }): Promise<number> {
  const done = deps.store.collection<MigrationRecord>(MIGRATIONS);
  if (await done.findById(MIGRATION_ID)) return 0;
  const marked = await deps.trail.markEarlierErasures();
  try {
    await done.insertOne({ id: MIGRATION_ID, finishedAt: deps.clock() });
  } catch (error) {
    // Another process finished it too.
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
  if (marked) deps.logger.info({ marked }, 'visitor records erased by retention before this version: their trail items no longer carry their titles');
  return marked;
}
