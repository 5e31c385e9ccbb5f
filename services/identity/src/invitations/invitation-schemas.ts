import { tenantRoleSchema } from '@platform/contracts';
import { z } from 'zod';
import { memberSchema } from '../projects/project-schemas';
import { tenantMemberResponse } from '../tenants/tenant-schemas';

const sent = {
  id: z.string(),
  invitedBy: z.string(),
  createdAt: z.number(),
  expiresAt: z.number().describe('Unix ms; a pending invitation lapses 14 days after it was last sent'),
};

const common = { userId: z.string().describe('The invited user; an id nobody has gets an invitation nobody ever sees'), ...sent };

const toProject = {
  kind: z.literal('project'),
  projectId: z.string(),
  permissions: z.array(z.string()).describe('Scoped `{projectId}::name`; the member gets them on accepting'),
};

export const projectInvitationSchema = z.object({ ...toProject, ...common });

/** An invitation by email: whoever opens the link it sent, signed in, may accept it. */
export const emailProjectInvitationSchema = z.object({
  ...toProject,
  email: z.string().describe('The address the invitation link was mailed to; the same answer whether or not an account has it'),
  ...sent,
});
export type EmailProjectInvitation = z.infer<typeof emailProjectInvitationSchema>;

/** A project's pending invitation: to a user id or to an email address. */
export const pendingProjectInvitationSchema = z.union([projectInvitationSchema, emailProjectInvitationSchema]);
export type PendingProjectInvitation = z.infer<typeof pendingProjectInvitationSchema>;

export const tenantInvitationSchema = z.object({ kind: z.literal('tenant'), tenantId: z.string(), role: tenantRoleSchema, ...common });

export const invitationSchema = z.discriminatedUnion('kind', [projectInvitationSchema, tenantInvitationSchema]);
export type Invitation = z.infer<typeof invitationSchema>;
export type ProjectInvitation = z.infer<typeof projectInvitationSchema>;
export type TenantInvitation = z.infer<typeof tenantInvitationSchema>;

/** What the invited user sees: the invitation and the name of what it is for. */
const inviterNameField = z.string().describe("The inviter's display name ('A former user' once the account is gone)");

export const receivedInvitationSchema = z.discriminatedUnion('kind', [
  projectInvitationSchema.extend({ name: z.string().describe("The project's name"), inviterName: inviterNameField }),
  tenantInvitationSchema.extend({ name: z.string().describe("The tenant's name"), inviterName: inviterNameField }),
]);

export const invitationIdParams = z.object({ invitationId: z.string().min(1).max(100) });

/** Accepting answers the membership it created. */
export const acceptedMembershipSchema = z.union([memberSchema, tenantMemberResponse]);

export const invitationTokenParams = z.object({ token: z.string().min(1).max(100) });

/** What the holder of an invitation link sees before answering it. */
export const linkedInvitationSchema = z.object({
  projectName: z.string(),
  inviterName: z.string().describe("The inviter's display name"),
});
