import { z } from 'zod';

/**
 * Identity publishes `platform.members.<projectId>.changed` (message id `membership:<id>`) for
 * every change of a project membership: a member who joined, whose permissions changed, or who
 * left or was removed. The audit trail keeps one item per change, so "who gave X this
 * permission, and when?" has an answer. Permissions are as stored (`{projectId}::name`).
 */
export const membershipChangeSchema = z.object({
  /** One id per change: the bus's message id and the trail's item id derive from it. */
  id: z.string().min(1),
  projectId: z.string().min(1),
  /** The member whose membership changed. */
  userId: z.string().min(1),
  change: z.enum(['added', 'permissionsChanged', 'removed']),
  /** The member's permissions after the change (none once removed). */
  permissions: z.array(z.string()),
  /** Before the change: absent for a member who was added. */
  previousPermissions: z.array(z.string()).optional(),
  /** Who made the change: the inviter for a member who joined, the member itself when it left. */
  changedBy: z.string().min(1),
  /** When (Unix ms). */
  timestamp: z.number(),
});
export type MembershipChange = z.infer<typeof membershipChangeSchema>;

export const MEMBERSHIP_CHANGES_FILTER = 'platform.members.*.changed';

export function membershipChangeSubject(projectId: string): string {
  return `platform.members.${projectId}.changed`;
}

export function membershipChangeMessageId(changeId: string): string {
  return `membership:${changeId}`;
}
