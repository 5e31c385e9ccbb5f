import { randomUUID } from 'node:crypto';
import type { EventBus } from '@platform/bus';
import { membershipChangeMessageId, membershipChangeSubject, type MembershipChange, type ProjectMember } from '@platform/contracts';
import { EventOutbox, type Clock, type Logger } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';

/** Membership changes made but not published yet (kit's EventOutbox). */
export const MEMBERSHIP_OUTBOX_COLLECTION = 'identity-membership-changes';

/** A change as the code that made it describes it; its id and time are given here. */
export type MembershipChangeInput = Omit<MembershipChange, 'id' | 'timestamp'>;

/**
 * Tells the audit trail of every change of a project membership (contracts' MembershipChange),
 * through an outbox, so a change made while the bus is down is recorded once it is back.
 */
export class MembershipChanges {
  readonly outbox: EventOutbox;

  constructor(private readonly deps: { store: DocumentStore; bus: EventBus; clock: Clock; logger: Logger }) {
    this.outbox = new EventOutbox(deps, MEMBERSHIP_OUTBOX_COLLECTION);
  }

  /** Announces the changes just made. Changes that change nothing are left out by the caller. */
  async announce(changes: MembershipChangeInput[]): Promise<void> {
    const timestamp = this.deps.clock();
    await this.outbox.publish(
      changes.map((input) => {
        const change: MembershipChange = { ...input, id: randomUUID(), timestamp };
        return { subject: membershipChangeSubject(change.projectId), msgId: membershipChangeMessageId(change.id), data: change };
      }),
    );
  }
}

function samePermissions(a: readonly string[], b: readonly string[]): boolean {
  const held = new Set(a);
  return held.size === new Set(b).size && b.every((permission) => held.has(permission));
}

/** The change a `putMember` made: none when the permissions stayed the same. */
export function membershipPut(member: ProjectMember, previousPermissions: string[] | undefined, changedBy: string): MembershipChangeInput[] {
  const { projectId, userId, permissions } = member;
  if (previousPermissions === undefined) return [{ projectId, userId, change: 'added', permissions, changedBy }];
  if (samePermissions(previousPermissions, permissions)) return [];
  return [{ projectId, userId, change: 'permissionsChanged', permissions, previousPermissions, changedBy }];
}

/** A membership that ended (removed, left, or its account deleted). */
export function membershipEnded(member: ProjectMember, changedBy: string): MembershipChangeInput {
  return { projectId: member.projectId, userId: member.userId, change: 'removed', permissions: [], previousPermissions: member.permissions, changedBy };
}
