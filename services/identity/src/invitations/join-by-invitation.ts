import type { ProjectMember, TenantMember } from '@platform/contracts';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import type { Invitation } from './invitation-schemas';

/**
 * Makes the invited user a member with what the invitation grants. A project or tenant that is
 * gone by now answers like an unknown invitation.
 */
export async function joinByInvitation(deps: IdentityDeps, invitation: Invitation): Promise<ProjectMember | Omit<TenantMember, 'id'>> {
  if (invitation.kind === 'project') {
    if (!(await deps.projects.find(invitation.projectId))) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
    const { member } = await deps.projects.putMember(invitation.projectId, invitation.userId, invitation.permissions);
    await deps.accessChanges.announce({ projectId: invitation.projectId });
    return member;
  }
  if (!(await deps.tenants.find(invitation.tenantId))) throw identityError('IDENTITY_INVITATION_NOT_FOUND');
  const { member } = await deps.tenants.putMembership(invitation.tenantId, invitation.userId, invitation.role);
  await Promise.all((await deps.tenants.projectsOf(invitation.tenantId)).map((project) => deps.accessChanges.announce({ projectId: project.id })));
  const { id: _id, ...view } = member;
  return view;
}
