import type { ProjectMember, TenantMember } from '@platform/contracts';
import { identityError } from '../errors';
import { membershipChangeMessages, membershipPut } from '../projects/membership-changes';
import type { IdentityDeps } from '../identity-deps';
import type { EmailProjectInvitation, Invitation, ProjectInvitation } from './invitation-schemas';

/**
 * Makes the accepting user a member with what the invitation grants: the invited user, or for an
 * email invitation whoever holds its link. A project or tenant that is gone by now answers like an
 * unknown invitation.
 */
export async function joinByInvitation(deps: IdentityDeps, invitation: ProjectInvitation | EmailProjectInvitation, userId: string): Promise<ProjectMember>;
export async function joinByInvitation(deps: IdentityDeps, invitation: Invitation, userId: string): Promise<ProjectMember | Omit<TenantMember, 'id'>>;
export async function joinByInvitation(deps: IdentityDeps, invitation: Invitation | EmailProjectInvitation, userId: string): Promise<ProjectMember | Omit<TenantMember, 'id'>> {
  if (invitation.kind === 'project') {
    if (!(await deps.projects.find(invitation.projectId))) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
    const { member, previousPermissions } = await deps.projects.putMember(invitation.projectId, userId, invitation.permissions);
    await deps.accessChanges.announce({ projectId: invitation.projectId });
    await deps.outbox.publish(membershipChangeMessages(membershipPut(member, previousPermissions, invitation.invitedBy), deps.clock));
    return member;
  }
  if (!(await deps.tenants.find(invitation.tenantId))) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
  const { member } = await deps.tenants.addMember(invitation.tenantId, userId, invitation.role);
  await Promise.all((await deps.tenants.projectsOf(invitation.tenantId)).map((project) => deps.accessChanges.announce({ projectId: project.id })));
  const { id: _id, ...view } = member;
  return view;
}
