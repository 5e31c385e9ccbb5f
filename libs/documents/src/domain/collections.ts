/**
 * Collection naming from the spec: `tenant-{projectId}-{typeId}` for documents of a type,
 * `tenant-{projectId}-types` and `tenant-{projectId}-applications`. Ids are restricted to
 * `[A-Za-z0-9_-]` so names never collide and never reach the filesystem or database unescaped;
 * history lives beside each collection under `{name}.history` (a dot cannot occur in an id).
 */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Type ids the spec's naming scheme reserves for the project's own collections. */
export const RESERVED_TYPE_IDS: ReadonlySet<string> = new Set(['types', 'applications', 'ai-agents']);

export function documentsCollection(projectId: string, typeId: string): string {
  return `tenant-${projectId}-${typeId}`;
}

export { typesCollection } from '@platform/contracts';

/** Whether a collection holds a project's types (see typesCollection). */
export function isTypesCollection(name: string): boolean {
  return /^tenant-[A-Za-z0-9_-]{1,64}-types$/.test(name);
}

export function applicationsCollection(projectId: string): string {
  return `tenant-${projectId}-applications`;
}

export function historyCollection(collection: string): string {
  return `${collection}.history`;
}
