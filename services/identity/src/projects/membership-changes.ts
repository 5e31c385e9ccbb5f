import { randomUUID } from 'node:crypto';
import { membershipChangeMessageId, membershipChangeSubject, type MembershipChange, type ProjectMember } from '@platform/contracts';
import type { Clock, OutboxMessage } from '@platform/kit';

/** A change as the code that made it describes it; its id and time are given here. */
export type MembershipChangeInput = Omit<MembershipChange, 'id' | 'timestamp'>;

/** The audit trail's messages for membership changes just made (contracts' MembershipChange), each with an id of its own. */
export function membershipChangeMessages(changes: MembershipChangeInput[], clock: Clock): OutboxMessage[] {
  const timestamp = clock();
  return changes.map((input) => {
    const change: MembershipChange = { ...input, id: randomUUID(), timestamp };
    return { subject: membershipChangeSubject(change.projectId), msgId: membershipChangeMessageId(change.id), data: change };
  });
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
