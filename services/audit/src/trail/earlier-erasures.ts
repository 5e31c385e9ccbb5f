import { runMigrationOnce, type Logger, type MigrationName } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import type { TrailStore } from './trail-store';

/** Recorded in the audit service's finished migrations, like the data service's `data-migrations`. */
const MIGRATION: MigrationName = { collection: 'audit-migrations', id: 'retention-erasures-marked' };

/**
 * Once per store: the visitor records that retention erased before the trail marked erasures
 * (versions before 2026-12-07) lose what their items kept of them, as those erased since do
 * (docs/audit.md, Erased by visitor retention): each earlier item's title, a copy of the visitor's
 * name or email, becomes the record's id, and a rebuild keeps those items. Without it an upgrade
 * left every such name in the trail's pages and exports. Safe to run again and from several
 * processes at once; a record of the finished run in `audit-migrations` spares later starts the scan.
 */
export async function markEarlierErasures(deps: { store: DocumentStore; trail: TrailStore; clock: () => number; logger: Logger }): Promise<number> {
  const marked = await runMigrationOnce(deps.store, MIGRATION, deps.clock, () => deps.trail.markEarlierErasures());
  if (marked) deps.logger.info({ marked }, 'visitor records erased by retention before this version: their trail items no longer carry their titles');
  return marked;
}
