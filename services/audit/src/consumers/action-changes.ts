import type { Subscription } from '@platform/bus';
import { ACTION_CHANGES_FILTER, actionChangeSchema, entityTitle, type Access, type ActionChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeActionChange } from '../domain/change-description';
import type { Names } from '../trail/names';
import { ACTIONS_TYPE_ID, ACTIONS_TYPE_NAME, entityKeyOf, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';

/** The durable the audit replicas share for saved actions. */
export const ACTION_CHANGES_CONSUMER = 'audit-action-changes';

/** The trail item of one save of an action: an entity's change like any other, its title the action's. */
export async function actionEntry(change: ActionChange, names: Pick<Names, 'userDisplayName'>): Promise<TrailEntry> {
  const entityKey = entityKeyOf(ACTIONS_TYPE_ID, change.actionId);
  return {
    id: `${entityKey}/${change.revision}`,
    projectId: change.projectId,
    entityKey,
    revision: change.revision,
    entityId: change.actionId,
    entityTitle: entityTitle(ACTIONS_TYPE_ID, { title: change.title }, change.actionId),
    entityTypeId: ACTIONS_TYPE_ID,
    entityTypeName: ACTIONS_TYPE_NAME,
    ...describeActionChange(change.change),
    userId: change.changedBy,
    userDisplayName: await names.userDisplayName(change.changedBy),
    timestamp: change.timestamp,
  };
}

/**
 * Records the actions service's saves (contracts' ActionChange) in the trail, each guarded by the
 * action's read rule as it stands at its newest revision (the trail store keeps every item of an
 * entity on its newest access); a redelivery changes nothing.
 */
export function startActionChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore, names: Pick<Names, 'userDisplayName'>): Promise<Subscription> {
  return context.bus.subscribe<unknown>({
    durable: ACTION_CHANGES_CONSUMER,
    filter: ACTION_CHANGES_FILTER,
    handler: async (message) => {
      const parsed = actionChangeSchema.safeParse(message.data);
      if (!parsed.success) {
        // A message no retry can fix; acknowledging it keeps it from blocking the stream.
        context.logger.error({ msgId: message.msgId, subject: message.subject, issues: parsed.error.issues }, 'malformed action change skipped');
        return;
      }
      const change = parsed.data;
      await trail.record(await actionEntry(change, names), { access: change.access as Access | undefined, revision: change.revision });
    },
  });
}
