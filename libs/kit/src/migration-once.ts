import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';

interface MigrationRecord extends StoredDocument {
  finishedAt: number;
}

/** Where a service records its finished start-up migrations (`data-migrations`), and this one's id. */
export interface MigrationName {
  collection: string;
  id: string;
}

/**
 * Runs a start-up migration once per store: skipped when `name.collection` records `name.id` as
 * finished, recorded once `migrate` ends. Several processes may run it at once, so `migrate` must
 * be safe to run again; a finish another process recorded first is fine. Answers what `migrate`
 * answered (what it changed), or 0 when an earlier start had finished it.
 */
export async function runMigrationOnce(store: DocumentStore, name: MigrationName, clock: () => number, migrate: () => Promise<number>): Promise<number> {
  const done = store.collection<MigrationRecord>(name.collection);
  if (await done.findById(name.id)) return 0;
  const changed = await migrate();
  try {
    await done.insertOne({ id: name.id, finishedAt: clock() });
  } catch (error) {
    // Another process finished it too.
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
  return changed;
}
