/**
 * Permission names as people write them. The server stores them scoped (`{projectId}::name`) and
 * scopes plain names on the way in, so the console shows and accepts the plain name of its own
 * project and keeps any other (already scoped) name as it is.
 */
export function plainPermission(projectId: string, permission: string): string {
  const prefix = `${projectId}::`;
  return permission.startsWith(prefix) ? permission.slice(prefix.length) : permission;
}

/** A member's permissions as one line of plain names ("editors, viewers"). */
export function shownPermissions(projectId: string, permissions: readonly string[]): string {
  return permissions.map((permission) => plainPermission(projectId, permission)).join(', ');
}

/** A comma-separated list as typed: trimmed entries, empty ones dropped. */
export function listOf(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
