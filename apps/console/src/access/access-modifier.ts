import { plainPermission } from './permission-names';

export const operations = ['read', 'update', 'delete'] as const;
export type Operation = (typeof operations)[number];
export interface Rule {
  permission?: string;
  userIds?: string[];
}
export type Access = Partial<Record<Operation, Rule>>;

/** A rule as it compares: the plain permission name and the users; null when it names nobody. */
function comparable(projectId: string, rule: Rule | undefined): string {
  if (!rule || (!rule.permission && !rule.userIds?.length)) return 'null';
  return JSON.stringify({ permission: rule.permission ? plainPermission(projectId, rule.permission) : null, userIds: rule.userIds ?? [] });
}

/**
 * The PATCH modifier that turns `current` into `next`, touching only the rules that changed:
 * `$set` replaces a rule whole, `$unset` removes it (the operation is open to every member
 * again). Null when nothing changed.
 */
export function accessModifier(projectId: string, current: Access, next: Access): { $set?: Record<string, Rule>; $unset?: Record<string, true> } | null {
  const set: Record<string, Rule> = {};
  const unset: Record<string, true> = {};
  for (const operation of operations) {
    const after = next[operation];
    if (comparable(projectId, current[operation]) === comparable(projectId, after)) continue;
    if (after) set[`access.${operation}`] = after;
    else unset[`access.${operation}`] = true;
  }
  const hasSet = Object.keys(set).length > 0;
  const hasUnset = Object.keys(unset).length > 0;
  if (!hasSet && !hasUnset) return null;
  return { ...(hasSet ? { $set: set } : {}), ...(hasUnset ? { $unset: unset } : {}) };
}
