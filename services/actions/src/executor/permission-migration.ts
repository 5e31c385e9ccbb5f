import { isDeepStrictEqual } from 'node:util';
import { scopeAccess } from '@platform/contracts';
import { DuplicateKeyError, type DocumentStore, type StoredDocument } from '@platform/storage';
import type { ActionRepository } from './action-repository';

/** The actions service's record of finished migrations, like the data service's `data-migrations`. */
export const ACTIONS_MIGRATIONS_COLLECTION = 'actions-migrations';
export const PERMISSION_NAMES_MIGRATION_ID = 'scoped-permission-names';

interface MigrationRecord extends StoredDocument {
  finishedAt: number;
}

/**
 * Scopes the plain permission names actions were stored with before every write scoped them
 * (`viewers` matched nobody; members hold `{projectId}::viewers`). Each is an ordinary replace
 * (a revision, a new updatedAt). Once every action is scoped, a record in `actions-migrations`
 * says so and later starts read nothing else; an action changed meanwhile keeps the record
 * unwritten, so the next start tries again. Safe to run from several processes: scoped names are
 * not touched.
 */
export async function migratePlainPermissionNames(deps: { actions: ActionRepository; store: DocumentStore; clock: () => number }): Promise<number> {
  const done = deps.store.collection<MigrationRecord>(ACTIONS_MIGRATIONS_COLLECTION);
  if (await done.findById(PERMISSION_NAMES_MIGRATION_ID)) return 0;
  let migrated = 0;
  let leftOver = 0;
  for (const action of await deps.actions.withPermissionRules()) {
    if (!action.access) continue;
    const scoped = scopeAccess(action.projectId, action.access);
    if (isDeepStrictEqual(scoped, action.access)) continue;
    if (await deps.actions.replace(action, { access: scoped }, [], deps.clock())) migrated += 1;
    else leftOver += 1;
  }
  if (leftOver > 0) return migrated;
  try {
    await done.insertOne({ id: PERMISSION_NAMES_MIGRATION_ID, finishedAt: deps.clock() });
  } catch (error) {
    // Another process finished it too.
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
  return migrated;
}
