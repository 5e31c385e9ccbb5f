import { ID_PATTERN } from '@platform/documents';

/**
 * The type id a `collectionName` names in this project, or null. Visitor collections follow the
 * spec's naming, `tenant-{projectId}-{typeId}`; a name of another project never matches.
 */
export function typeIdOfCollection(projectId: string, collectionName: string): string | null {
  const prefix = `tenant-${projectId}-`;
  if (!collectionName.startsWith(prefix)) return null;
  const typeId = collectionName.slice(prefix.length);
  return ID_PATTERN.test(typeId) ? typeId : null;
}
