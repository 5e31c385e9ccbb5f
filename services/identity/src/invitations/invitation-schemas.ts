import { tenantRoleSchema } from '@platform/contracts';
import { z } from 'zod';
import { memberSchema } from '../projects/project-schemas';
import { tenantMemberResponse } from '../tenants/tenant-schemas';

const common = {
  id: z.string(),
  userId: z.string().describe('The invited user; an id nobody has gets an invitation nobody ever sees'),
  invitedBy: z.string(),
  createdAt: z.number(),
  expiresAt: z.number().describe('Unix ms; a pending invitation lapses 14 days after it was last sent'),
};

export const projectInvitationSchema = z.object({
  kind: z.literal('project'),
  projectId: z.string(),
  permissions: z.array(z.string()).describe('Scoped `{projectId}::name`; the member gets them on accepting'),
  ...common,
});

export const tenantInvitationSchema = z.object({ kind: z.literal('tenant'), tenantId: z.string(), role: tenantRoleSchema, ...common });

export const invitationSchema = z.discriminatedUnion('kind', [projectInvitationSchema, tenantInvitationSchema]);
export type Invitation = z.infer<typeof invitationSchema>;
export type ProjectInvitation = z.infer<typeof projectInvitationSchema>;
export type TenantInvitation = z.infer<typeof tenantInvitationSchema>;

/** What the invited user sees: the invitation and the name of what it is for. */
export const receivedInvitationSchema = z.discriminatedUnion('kind', [
  projectInvitationSchema.extend({ name: z.string().describe("The project's name") }),
  tenantInvitationSchema.extend({ name: z.string().describe("The tenant's name") }),
]);

export const invitationIdParams = z.object({ invitationId: z.string().min(1).max(100) });

/** Accepting answers the membership it created. */
export const acceptedMembershipSchema = z.union([memberSchema, tenantMemberResponse]);
