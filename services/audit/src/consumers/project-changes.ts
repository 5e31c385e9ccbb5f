import type { Subscription } from '@platform/bus';
import { PROJECT_CHANGES_FILTER, projectChangeSchema, type ProjectChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeProjectChange } from '../domain/change-description';
import type { Names } from '../trail/names';
import { projectRecordEntry } from '../trail/project-record-entry';
import { PROJECT_SETTINGS, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';
import { startValidatedConsumer } from './validated-consumer';

/** The durable the audit replicas share for changes of projects' settings. */
export const PROJECT_CHANGES_CONSUMER = 'audit-project-changes';

/** The trail item of one change of the project's own settings: its name as the title, and what the change moved. */
export async function projectEntry(change: ProjectChange, names: Pick<Names, 'userDisplayName'>): Promise<TrailEntry> {
  return projectRecordEntry(
    {
      kind: PROJECT_SETTINGS,
      projectId: change.projectId,
      recordId: change.projectId,
      revision: change.revision,
      title: change.name,
      described: describeProjectChange(change.change),
      changedBy: change.changedBy,
      changedByName: await names.userDisplayName(change.changedBy),
      timestamp: change.timestamp,
    },
    { previousTitle: change.previousName, tenantId: change.tenantId, previousTenantId: change.previousTenantId, ownerId: change.ownerId, previousOwnerId: change.previousOwnerId },
  );
}

/**
 * Records identity's changes of projects' settings (contracts' ProjectChange) in the trail, shown
 * to those who may read the project (as its memberships are; readable-trail-filter.ts). A
 * redelivery changes nothing.
 */
export function startProjectChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore, names: Pick<Names, 'userDisplayName'>): Promise<Subscription> {
  return startValidatedConsumer(context, {
    durable: PROJECT_CHANGES_CONSUMER,
    filter: PROJECT_CHANGES_FILTER,
    schema: projectChangeSchema,
    what: 'project change',
    handle: async (change) => trail.recordProjectRecordChange(await projectEntry(change, names)),
  });
}
