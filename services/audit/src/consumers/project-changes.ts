import type { Subscription } from '@platform/bus';
import { PROJECT_CHANGES_FILTER, projectChangeSchema, type ProjectChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeProjectChange } from '../domain/change-description';
import type { Names } from '../trail/names';
import { entityKeyOf, PROJECT_SETTINGS_TYPE_ID, PROJECT_SETTINGS_TYPE_NAME, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';

/** The durable the audit replicas share for changes of projects' settings. */
export const PROJECT_CHANGES_CONSUMER = 'audit-project-changes';

/** The trail item of one change of the project's own settings: its name as the title, and what the change moved. */
export async function projectEntry(change: ProjectChange, names: Pick<Names, 'userDisplayName'>): Promise<TrailEntry> {
  const entityKey = entityKeyOf(PROJECT_SETTINGS_TYPE_ID, change.projectId);
  return {
    id: `${entityKey}/${change.revision}`,
    projectId: change.projectId,
    entityKey,
    revision: change.revision,
    entityId: change.projectId,
    entityTitle: change.name,
    entityTypeId: PROJECT_SETTINGS_TYPE_ID,
    entityTypeName: PROJECT_SETTINGS_TYPE_NAME,
    ...describeProjectChange(change.change),
    userId: change.changedBy,
    userDisplayName: await names.userDisplayName(change.changedBy),
    timestamp: change.timestamp,
    ...(change.previousName !== undefined ? { previousTitle: change.previousName } : {}),
    ...(change.tenantId ? { tenantId: change.tenantId } : {}),
    ...(change.previousTenantId ? { previousTenantId: change.previousTenantId } : {}),
  };
}

/**
 * Records identity's changes of projects' settings (contracts' ProjectChange) in the trail, shown
 * to those who may read the project (as its memberships are; readable-trail-filter.ts). A
 * redelivery changes nothing.
 */
export function startProjectChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore, names: Pick<Names, 'userDisplayName'>): Promise<Subscription> {
  return context.bus.subscribe<unknown>({
    durable: PROJECT_CHANGES_CONSUMER,
    filter: PROJECT_CHANGES_FILTER,
    handler: async (message) => {
      const parsed = projectChangeSchema.safeParse(message.data);
      if (!parsed.success) {
        // A message no retry can fix; acknowledging it keeps it from blocking the stream.
        context.logger.error({ msgId: message.msgId, subject: message.subject, issues: parsed.error.issues }, 'malformed project change skipped');
        return;
      }
      await trail.recordProjectRecordChange(await projectEntry(parsed.data, names));
    },
  });
}
