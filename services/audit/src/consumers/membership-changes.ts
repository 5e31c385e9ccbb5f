import type { Subscription } from '@platform/bus';
import { MEMBERSHIP_CHANGES_FILTER, membershipChangeSchema, type MembershipChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeMembershipChange } from '../domain/change-description';
import { projectRecordEntry } from '../trail/project-record-entry';
import { MEMBERS, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';
import { startValidatedConsumer } from './validated-consumer';

/** The durable the audit replicas share for membership changes. */
export const MEMBERSHIP_CONSUMER = 'audit-membership-changes';

/**
 * The trail item of one membership change. It holds user ids only: the member's and the author's
 * names are read at every page (`publicItem`), so they follow the users' privacy and leave with
 * their accounts without a copy here to erase (an account's deletion ends its memberships, and
 * those items may be recorded after its name was erased from the others).
 */
export function membershipEntry(change: MembershipChange): TrailEntry {
  return projectRecordEntry(
    {
      kind: MEMBERS,
      projectId: change.projectId,
      recordId: change.userId,
      revision: 0,
      changeId: change.id,
      title: change.userId,
      described: describeMembershipChange(change.change),
      changedBy: change.changedBy,
      changedByName: change.changedBy,
      timestamp: change.timestamp,
    },
    { permissions: change.permissions, previousPermissions: change.previousPermissions },
  );
}

/** Records identity's membership changes (contracts' MembershipChange) in the trail; a redelivery changes nothing. */
export function startMembershipChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore): Promise<Subscription> {
  return startValidatedConsumer(context, {
    durable: MEMBERSHIP_CONSUMER,
    filter: MEMBERSHIP_CHANGES_FILTER,
    schema: membershipChangeSchema,
    what: 'membership change',
    handle: (change) => trail.recordProjectRecordChange(membershipEntry(change)),
  });
}
