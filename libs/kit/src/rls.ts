import { createHash } from 'node:crypto';
import type { Access, RlsOperation } from '@platform/contracts';

/** What RLS needs to know about the caller within one project. */
export interface ProjectCaller {
  userId: string;
  /** Owners of the project and platform owners pass every check. */
  superuser: boolean;
  /** Scoped permission strings the caller holds in this project. */
  permissions: ReadonlySet<string>;
}

/**
 * Row-level security for one operation on one entity: superusers pass; an operation without a
 * rule is open to every project member; otherwise the caller must hold the rule's permission or be
 * listed in its userIds.
 */
export function rlsAllows(access: Access | undefined, operation: RlsOperation, caller: ProjectCaller): boolean {
  if (caller.superuser) return true;
  const rule = access?.[operation];
  if (!rule || (rule.permission === undefined && rule.userIds === undefined)) return true;
  if (rule.permission !== undefined && caller.permissions.has(rule.permission)) return true;
  return rule.userIds?.includes(caller.userId) ?? false;
}

/**
 * The same rule as a store filter, so lists and pulls return only readable entities without
 * loading the others. Answers an empty filter for superusers.
 */
export function rlsFilter(operation: RlsOperation, caller: ProjectCaller): Record<string, unknown> {
  if (caller.superuser) return {};
  const field = `access.${operation}`;
  return {
    $or: [
      { [field]: { $exists: false } },
      { [`${field}.permission`]: { $exists: false }, [`${field}.userIds`]: { $exists: false } },
      { [`${field}.permission`]: { $in: [...caller.permissions] } },
      { [`${field}.userIds`]: caller.userId },
    ],
  };
}

/**
 * A digest of what, besides an entity's own rules, decides which entities the caller may read: its
 * permissions and whether it passes every rule. Pulls carry it (`standing`): when it differs from
 * the last pull's, entities behind the client's cursor may have become readable without being
 * written, so the client pulls from the start. A type's read rule needs no place here: a type the
 * caller may not read answers 404, and a client that met it pulls from the start anyway.
 */
export function standingDigest(caller: ProjectCaller): string {
  return createHash('sha256')
    .update(JSON.stringify([caller.superuser, [...caller.permissions].sort()]))
    .digest('base64url')
    .slice(0, 16);
}
