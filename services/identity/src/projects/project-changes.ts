import { projectChangeMessageId, projectChangeSubject, type ProjectChange } from '@platform/contracts';
import type { OutboxMessage, ProjectRecord } from '@platform/kit';

type SettingsChange = Exclude<ProjectChange['change'], 'renamed' | 'moved' | 'ownerChanged'>;

/**
 * The audit trail's message for one change of a project's settings, from the project after it
 * (and before it, for a rename or a move: none when it changed nothing; the owner before, for a
 * change of owner).
 */
export function projectChangeMessages(
  change: ProjectChange['change'],
  projects: { after: ProjectRecord; before?: ProjectRecord },
  changedBy: string,
  now: number,
  previousOwnerId?: string,
): OutboxMessage[] {
  const { after, before } = projects;
  if (change === 'renamed' && before?.name === after.name) return [];
  if (change === 'moved' && before?.tenantId === after.tenantId) return [];
  const data: ProjectChange = {
    projectId: after.id,
    revision: after.revision,
    name: after.name,
    change,
    ...(change === 'renamed' && before ? { previousName: before.name } : {}),
    ...(change === 'moved' && after.tenantId ? { tenantId: after.tenantId } : {}),
    ...(change === 'moved' && before?.tenantId ? { previousTenantId: before.tenantId } : {}),
    ...(change === 'ownerChanged' ? { ownerId: after.ownerId, ...(previousOwnerId ? { previousOwnerId } : {}) } : {}),
    changedBy,
    timestamp: now,
  };
  return [{ subject: projectChangeSubject(data.projectId), msgId: projectChangeMessageId(data), data }];
}

/** A change that needs only the project after it. */
export function projectSettingsChanged(change: SettingsChange, after: ProjectRecord, changedBy: string, now: number): OutboxMessage[] {
  return projectChangeMessages(change, { after }, changedBy, now);
}
