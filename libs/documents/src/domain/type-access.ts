import type { Access } from '@platform/contracts';
import { rlsAllows, type ProjectCaller } from '@platform/kit';
import type { UpdateModifier } from '@platform/storage';
import { touchedPaths } from './modifier-rules';

export interface TypeManagementCheck {
  caller: ProjectCaller;
  /** The project's own access rules. */
  projectAccess: Access | undefined;
  /** The type's `access` (absent for a type being created). */
  typeAccess: Access | undefined;
}

/**
 * Whether the caller may change (`update`) or delete a type. A type is guarded like its project:
 * by default only those with the project's update permission may; the type's own rule for the
 * operation, when it names a permission or users, grants it to them too. An operation without a
 * rule stays closed to the rest, unlike on documents, since a type decides what its documents show.
 */
export function mayManageType(operation: 'update' | 'delete', { caller, projectAccess, typeAccess }: TypeManagementCheck): boolean {
  if (rlsAllows(projectAccess, 'update', caller)) return true;
  const rule = typeAccess?.[operation];
  const granted = rule !== undefined && (rule.permission !== undefined || rule.userIds !== undefined);
  return granted && rlsAllows(typeAccess, operation, caller);
}

/**
 * The paths of a modifier that touch a type's `defaultAccess`, as `modifier.<op>.<path>`. It sets
 * the RLS of the type's new documents, so like `access` (which the general modifier rules guard)
 * only the project's updaters change it.
 */
export function defaultAccessPaths(modifier: unknown): string[] {
  if (modifier === null || typeof modifier !== 'object' || Array.isArray(modifier)) return [];
  const touched: string[] = [];
  for (const [operator, fields] of Object.entries(modifier)) {
    if (fields === null || typeof fields !== 'object') continue;
    for (const path of touchedPaths({ [operator]: fields } as UpdateModifier)) {
      if (path.split('.')[0] === 'defaultAccess') touched.push(`modifier.${operator}.${path}`);
    }
  }
  return touched;
}
