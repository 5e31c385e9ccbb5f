import { rlsOperations, scopePermission } from '@platform/contracts';
import type { UpdateModifier } from '@platform/storage';
import type { ModifierProblem } from './modifier-rules';

/**
 * Permission names mean one thing wherever a rule is written: a plain name is the project's
 * (`{projectId}::name`, what members hold), a name holding `::` is used unchanged (the rule batch
 * RLS and project access follow). A plain name stored as given matched nobody, so only owners could
 * read what it guarded. Values that are not rules are left for the kind's own validation.
 */

/** The top-level fields of a collection that hold access configurations: types also carry `defaultAccess`. */
export function accessFieldsOf(typeId: string): readonly string[] {
  return typeId === 'types' ? ['access', 'defaultAccess'] : ['access'];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function scopeRule(projectId: string, rule: unknown): unknown {
  if (!isRecord(rule) || typeof rule.permission !== 'string') return rule;
  return { ...rule, permission: scopePermission(projectId, rule.permission) };
}

function scopeConfiguration(projectId: string, access: unknown): unknown {
  if (!isRecord(access)) return access;
  return Object.fromEntries(Object.entries(access).map(([operation, rule]) => [operation, scopeRule(projectId, rule)]));
}

/** Where a path lies within an access field: the whole configuration, one rule, a rule's permission, or elsewhere. */
function accessPathKind(path: string, fields: readonly string[]): 'configuration' | 'rule' | 'permission' | 'userIds' | 'other' | undefined {
  const [root, operation, member, ...rest] = path.split('.');
  if (!fields.includes(root as string)) return undefined;
  if (operation === undefined) return 'configuration';
  if (!(rlsOperations as readonly string[]).includes(operation)) return 'other';
  if (member === undefined) return 'rule';
  if (member === 'permission' && rest.length === 0) return 'permission';
  if (member === 'userIds') return 'userIds';
  return 'other';
}

/** An entity's fields with the permission names of its access fields scoped to the project. */
export function scopeAccessFields(projectId: string, fields: Record<string, unknown>, accessFields: readonly string[]): Record<string, unknown> {
  if (!accessFields.some((name) => isRecord(fields[name]))) return fields;
  const scoped = { ...fields };
  for (const name of accessFields) if (isRecord(fields[name])) scoped[name] = scopeConfiguration(projectId, fields[name]);
  return scoped;
}

/**
 * Modifier paths that could store a permission name without it being scoped: only `$set` (whose
 * values are scoped) and `$unset` may write a configuration, a rule or a permission; the array
 * operators may change a rule's `userIds`.
 */
export function unscopableAccessPaths(modifier: UpdateModifier, accessFields: readonly string[]): ModifierProblem[] {
  const problems: ModifierProblem[] = [];
  for (const [operator, paths] of Object.entries(modifier)) {
    if (operator === '$set' || operator === '$unset') continue;
    for (const [path, value] of Object.entries(paths as Record<string, unknown>)) {
      const targets = operator === '$rename' && typeof value === 'string' ? [path, value] : [path];
      const kinds = targets.map((target) => accessPathKind(target, accessFields));
      const arrayOnUserIds = operator !== '$rename' && kinds[0] === 'userIds';
      if (kinds.some((kind) => kind !== undefined) && !arrayOnUserIds) {
        problems.push({ path: `modifier.${operator}.${path}`, message: 'access rules change only with $set and $unset (and userIds with the array operators), so permission names are scoped to the project' });
      }
    }
  }
  return problems;
}

/** The modifier with every permission name its `$set` writes into an access field scoped to the project. */
export function scopeAccessModifier(projectId: string, modifier: UpdateModifier, accessFields: readonly string[]): UpdateModifier {
  const set = modifier.$set;
  if (!set) return modifier;
  let changed = false;
  const scoped = Object.fromEntries(
    Object.entries(set).map(([path, value]) => {
      const kind = accessPathKind(path, accessFields);
      const next =
        kind === 'configuration' ? scopeConfiguration(projectId, value) : kind === 'rule' ? scopeRule(projectId, value) : kind === 'permission' && typeof value === 'string' ? scopePermission(projectId, value) : value;
      if (next !== value) changed = true;
      return [path, next];
    }),
  );
  return changed ? { ...modifier, $set: scoped } : modifier;
}
