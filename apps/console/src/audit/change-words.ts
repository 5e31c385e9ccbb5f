/** The change description keys the audit service answers, in words. */
const CHANGE_WORDS: Record<string, string> = {
  'audit.created': 'created',
  'audit.updated': 'updated',
  'audit.deleted': 'deleted',
  'audit.restored': 'restored',
  'audit.accessChanged': 'access changed',
  'audit.published': 'published',
  'audit.memberAdded': 'member added',
  'audit.memberPermissionsChanged': 'permissions changed',
  'audit.memberRemoved': 'member removed',
};

export function changeInWords(changeDescription: string): string {
  return CHANGE_WORDS[changeDescription] ?? changeDescription;
}

/** A permission as people named it: stored names carry their project's id (`{projectId}::editors`). */
function permissionName(permission: string): string {
  const scope = permission.indexOf('::');
  return scope === -1 ? permission : permission.slice(scope + 2);
}

function listed(permissions: readonly string[]): string {
  return permissions.length === 0 ? 'none' : permissions.map(permissionName).join(', ');
}

/** What a membership change gave and took, in words (nothing for other changes). */
export function permissionsInWords(item: { permissions?: string[]; previousPermissions?: string[] }): string | undefined {
  if (!item.permissions) return undefined;
  if (!item.previousPermissions) return `permissions: ${listed(item.permissions)}`;
  if (item.permissions.length === 0) return `had: ${listed(item.previousPermissions)}`;
  return `permissions: ${listed(item.permissions)} (were: ${listed(item.previousPermissions)})`;
}
