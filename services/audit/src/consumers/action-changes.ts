import type { Subscription } from '@platform/bus';
import { ACTION_CHANGES_FILTER, actionChangeSchema, entityTitle, type Access, type ActionChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeActionChange } from '../domain/change-description';
import type { Names } from '../trail/names';
import { projectRecordEntry } from '../trail/project-record-entry';
import { ACTIONS, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';
import { startValidatedConsumer } from './validated-consumer';

/** The durable the audit replicas share for saved actions. */
export const ACTION_CHANGES_CONSUMER = 'audit-action-changes';

/** The trail item of one save of an action: an entity's change like any other, its title the action's. */
export async function actionEntry(change: ActionChange, names: Pick<Names, 'userDisplayName'>): Promise<TrailEntry> {
  return projectRecordEntry({
    kind: ACTIONS,
    projectId: change.projectId,
    recordId: change.actionId,
    revision: change.revision,
    title: entityTitle(ACTIONS.typeId, { title: change.title }, change.actionId),
    described: describeActionChange(change.change),
    changedBy: change.changedBy,
    changedByName: await names.userDisplayName(change.changedBy),
    timestamp: change.timestamp,
  });
}

/**
 * Records the actions service's saves (contracts' ActionChange) in the trail, each guarded by the
 * action's read rule as it stands at its newest revision (the trail store keeps every item of an
 * entity on its newest access); a redelivery changes nothing.
 */
export function startActionChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore, names: Pick<Names, 'userDisplayName'>): Promise<Subscription> {
  return startValidatedConsumer(context, {
    durable: ACTION_CHANGES_CONSUMER,
    filter: ACTION_CHANGES_FILTER,
    schema: actionChangeSchema,
    what: 'action change',
    handle: async (change) => trail.record(await actionEntry(change, names), { access: change.access as Access | undefined, revision: change.revision }),
  });
}
