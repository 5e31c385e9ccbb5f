import { rlsOperations } from '@platform/contracts';
import { AppError, runMigrationOnce, type MigrationName } from '@platform/kit';
import type { Filter } from '@platform/storage';
import { type DataDeps, accessFieldsOf, READ_PROJECTION, type EntityScope, type StoredEntity } from '@platform/documents';

const MIGRATION: MigrationName = { collection: 'data-migrations', id: 'scoped-permission-names' };
/** The author of the migration's changes in history and the audit trail. */
export const MIGRATION_USER_ID = 'platform-migration';
const ATTEMPTS = 3;

/** The permission names of an entity's access fields that are plain (unscoped), by `$set` path. */
function plainPermissionNames(entity: Record<string, unknown>, accessFields: readonly string[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const field of accessFields) {
    const access = entity[field] as Record<string, { permission?: unknown } | undefined> | undefined;
    for (const operation of rlsOperations) {
      const permission = access?.[operation]?.permission;
      if (typeof permission === 'string' && !permission.includes('::')) names[`${field}.${operation}.permission`] = permission;
    }
  }
  return names;
}

function withPermissionFilter(accessFields: readonly string[]): Filter {
  return { $or: accessFields.flatMap((field) => rlsOperations.map((operation) => ({ [`${field}.${operation}.permission`]: { $exists: true } }))) };
}

/**
 * Once per store: rewrites the plain permission names that entities (documents, types' `access` and
 * `defaultAccess`, applications, agents) were stored with before every write scoped them. Each
 * rewrite is an ordinary write through the writer (the writer scopes the names; a revision, a
 * change by MIGRATION_USER_ID and an event), so clients pull it and members holding the permission
 * can now read what it guards. Safe to run again and from several processes at once: an entity
 * already scoped is not touched, one written meanwhile is read again.
 */
export async function migratePlainPermissionNames(deps: Pick<DataDeps, 'store' | 'writer' | 'drainer' | 'clock' | 'logger'>): Promise<number> {
  const migrated = await runMigrationOnce(deps.store, MIGRATION, deps.clock, async () => {
    let changed = 0;
    for (const scope of await deps.drainer.registeredScopes()) changed += await migrateCollection(deps, scope);
    return changed;
  });
  if (migrated) deps.logger.info({ migrated }, 'plain permission names scoped to their projects');
  return migrated;
}

async function migrateCollection(deps: Pick<DataDeps, 'store' | 'writer'>, scope: EntityScope): Promise<number> {
  const accessFields = accessFieldsOf(scope.typeId);
  const collection = deps.store.collection<StoredEntity>(scope.collection);
  let migrated = 0;
  for (const candidate of await collection.find(withPermissionFilter(accessFields), { projection: READ_PROJECTION })) {
    let entity: StoredEntity | null = candidate;
    for (let attempt = 0; entity && attempt < ATTEMPTS; attempt += 1) {
      const plain = plainPermissionNames(entity, accessFields);
      if (Object.keys(plain).length === 0) break;
      try {
        // The writer scopes the names it sets.
        await deps.writer.patch(scope, entity.id, { $set: plain }, { userId: MIGRATION_USER_ID, baseRevision: entity.revision });
        migrated += 1;
        break;
      } catch (error) {
        // Written meanwhile: read it again.
        if (!(error instanceof AppError) || error.code !== 'DATA_REVISION_CONFLICT') throw error;
        entity = await collection.findById(entity.id, { projection: READ_PROJECTION });
      }
    }
  }
  return migrated;
}
