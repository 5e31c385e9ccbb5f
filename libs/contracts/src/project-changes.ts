import { z } from 'zod';

/**
 * Identity publishes `platform.projects.<projectId>.changed` (message id
 * `project-change:<projectId>/<revision>`) for every change of a project's own settings by a user:
 * created, renamed, AI turned on or off, moved to another tenant, passed to another owner,
 * deleted, restored. The audit
 * trail keeps one item per change ("who turned AI on for this project?").
 */
export const projectChangeSchema = z.object({
  projectId: z.string().min(1),
  /** The project's revision after the change (0 for its creation). */
  revision: z.number().int().min(0),
  /** The project's name after the change. */
  name: z.string(),
  change: z.enum(['created', 'renamed', 'aiEnabled', 'aiDisabled', 'moved', 'ownerChanged', 'deleted', 'restored']),
  /** Renamed: the name before. */
  previousName: z.string().optional(),
  /** Moved: the tenant it left and the one it joined. */
  tenantId: z.string().min(1).optional(),
  previousTenantId: z.string().min(1).optional(),
  /** Owner changed (the owner left the tenant; an admin took its projects): the owner now and before. */
  ownerId: z.string().min(1).optional(),
  previousOwnerId: z.string().min(1).optional(),
  changedBy: z.string().min(1),
  timestamp: z.number(),
});
export type ProjectChange = z.infer<typeof projectChangeSchema>;

export const PROJECT_CHANGES_FILTER = 'platform.projects.*.changed';

export function projectChangeSubject(projectId: string): string {
  return `platform.projects.${projectId}.changed`;
}

export function projectChangeMessageId(change: Pick<ProjectChange, 'projectId' | 'revision'>): string {
  return `project-change:${change.projectId}/${change.revision}`;
}
