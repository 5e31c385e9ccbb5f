import { isDeepStrictEqual } from 'node:util';
import { scopeAccess } from '@platform/contracts';
import type { ActionRepository } from './action-repository';

/**
 * Scopes the plain permission names actions were stored with before every write scoped them
 * (`viewers` matched nobody; members hold `{projectId}::viewers`). Each is an ordinary replace
 * (a revision, a new updatedAt); an action changed meanwhile is left for the next start. Safe to
 * run again and from several processes: scoped names are not touched.
 */
export async function migratePlainPermissionNames(actions: ActionRepository, clock: () => number): Promise<number> {
  let migrated = 0;
  for (const action of await actions.withPermissionRules()) {
    if (!action.access) continue;
    const scoped = scopeAccess(action.projectId, action.access);
    if (isDeepStrictEqual(scoped, action.access)) continue;
    if (await actions.replace(action, { access: scoped }, [], clock())) migrated += 1;
  }
  return migrated;
}
