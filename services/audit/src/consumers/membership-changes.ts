import type { Subscription } from '@platform/bus';
import { MEMBERSHIP_CHANGES_FILTER, membershipChangeSchema, type MembershipChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeMembershipChange } from '../domain/change-description';
import { entityKeyOf, MEMBERS_TYPE_ID, MEMBERS_TYPE_NAME, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';

/** The durable the audit replicas share for membership changes. */
export const MEMBERSHIP_CONSUMER = 'audit-membership-changes';

/**
 * The trail item of one membership change. It holds user ids only: the member's and the author's
 * names are read at every page (`publicItem`), so they follow the users' privacy and leave with
 * their accounts without a copy here to erase (an account's deletion ends its memberships, and
 * those items may be recorded after its name was erased from the others).
 */
export function membershipEntry(change: MembershipChange): TrailEntry {
  return {
    id: `${MEMBERS_TYPE_ID}/${change.userId}/${change.id}`,
    projectId: change.projectId,
    entityKey: entityKeyOf(MEMBERS_TYPE_ID, change.userId),
    revision: 0,
    entityId: change.userId,
    entityTitle: change.userId,
    entityTypeId: MEMBERS_TYPE_ID,
    entityTypeName: MEMBERS_TYPE_NAME,
    ...describeMembershipChange(change.change),
    userId: change.changedBy,
    userDisplayName: change.changedBy,
    timestamp: change.timestamp,
    permissions: change.permissions,
    ...(change.previousPermissions ? { previousPermissions: change.previousPermissions } : {}),
  };
}

/** Records identity's membership changes (contracts' MembershipChange) in the trail; a redelivery changes nothing. */
export function startMembershipChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore): Promise<Subscription> {
  return context.bus.subscribe<unknown>({
    durable: MEMBERSHIP_CONSUMER,
    filter: MEMBERSHIP_CHANGES_FILTER,
    handler: async (message) => {
      const parsed = membershipChangeSchema.safeParse(message.data);
      if (!parsed.success) {
        // A message no retry can fix; acknowledging it keeps it from blocking the stream.
        context.logger.error({ msgId: message.msgId, subject: message.subject, issues: parsed.error.issues }, 'malformed membership change skipped');
        return;
      }
      await trail.recordProjectRecordChange(membershipEntry(parsed.data));
    },
  });
}
