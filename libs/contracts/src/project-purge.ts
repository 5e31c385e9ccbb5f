/**
 * Identity publishes `platform.projects.<projectId>.purge` (message id `project-purge:<projectId>`)
 * once a deleted project's restore period has ended; every service then erases what it holds of
 * the project. The erasure is idempotent, so a repeated message changes nothing.
 */
export interface ProjectPurge {
  projectId: string;
  /** When the project was deleted (Unix ms). */
  deletedAt: number;
}

export const PROJECT_PURGE_FILTER = 'platform.projects.*.purge';

export function projectPurgeSubject(projectId: string): string {
  return `platform.projects.${projectId}.purge`;
}

export function projectPurgeMessageId(projectId: string): string {
  return `project-purge:${projectId}`;
}
