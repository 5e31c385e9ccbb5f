import { accountDeletedMessageId, accountDeletedSubject, personalTenantId, type AccountDeleted, type ProjectMember, type TenantRole } from '@platform/contracts';
import type { ProjectRecord } from '@platform/kit';
import type { TenantRecord } from '../tenants/tenant-repository';
import type { IdentityDeps } from '../identity-deps';
import { membershipChangeMessages, membershipEnded, membershipPut, type MembershipChangeInput } from '../projects/membership-changes';
import { projectChangeMessages, projectSettingsChanged } from '../projects/project-changes';
import { stepDown, type RoleChanging, type StepDownRefusal } from './account-step-down';
import { lastPlatformOwner, lastTenantAdmin, sameBlocker, type DeletionBlocker } from './deletion-blockers';

/** What deleting the account does, for its user to read first. */
export interface DeletionPlan {
  blockers: DeletionBlocker[];
  /** Projects deleted with the account (restorable by a platform owner for the restore period, then purged). */
  deletedProjects: Array<{ id: string; name: string }>;
  /** Shared tenants the user leaves; projects it owns there pass to one of the tenant's admins. */
  leftTenants: Array<{ id: string; name: string }>;
}

type Membership = TenantRecord & { role: TenantRole };

/** A deletion plan with what carrying it out needs: the shared tenants left, and those that go. */
export type AccountDeletion = DeletionPlan & { leaving: Membership[]; alone: Membership[] };

/** Why `deleteAccount` changed nothing: what stands in the way now, or another change of one of the account's roles under way. */
export type DeletionRefusal = { blockers: DeletionBlocker[] } | RoleChanging;

type Deps = Pick<IdentityDeps, 'users' | 'projects' | 'tenants' | 'invitations' | 'sessions' | 'accessChanges' | 'outbox' | 'clock'>;

/** A shared tenant goes with the account when the user is its only member; else the user leaves it. */
async function othersOf(deps: Deps, tenant: Membership, userId: string) {
  const members = (await deps.tenants.listMembers(tenant.id)).filter((member) => member.userId !== userId);
  return { members, admins: members.filter((member) => member.role === 'admin') };
}

/**
 * The projects that go with the account: those it owns outside shared tenants it leaves (its
 * personal tenant's, older projects without a tenant) and those of shared tenants it alone
 * belongs to.
 */
export async function planDeletion(deps: Deps, user: { id: string; platformOwner: boolean }): Promise<AccountDeletion> {
  const blockers: DeletionBlocker[] = [];
  if (user.platformOwner && (await deps.users.countPlatformOwners()) <= 1) blockers.push(lastPlatformOwner());
  const leaving: Membership[] = [];
  const alone: Membership[] = [];
  for (const tenant of await deps.tenants.listForUser(user.id)) {
    if (tenant.personal) continue;
    const others = await othersOf(deps, tenant, user.id);
    if (others.members.length === 0) alone.push(tenant);
    else if (others.admins.length === 0) blockers.push(lastTenantAdmin(tenant));
    else leaving.push(tenant);
  }
  const handedOver = new Set(leaving.map((tenant) => tenant.id));
  const deleted = new Map<string, { id: string; name: string }>();
  const goes = (project: ProjectRecord | null) => project && !(project.tenantId && handedOver.has(project.tenantId)) && deleted.set(project.id, { id: project.id, name: project.name });
  for (const tenantId of [personalTenantId(user.id), ...alone.map((tenant) => tenant.id)]) for (const project of await deps.tenants.projectsOf(tenantId)) goes(project);
  for (const membership of await deps.projects.membershipsOf(user.id)) if (membership.role === 'owner') goes(await deps.projects.find(membership.projectId));
  const deletedProjects = [...deleted.values()];
  return { blockers, deletedProjects, leftTenants: leaving.map((tenant) => ({ id: tenant.id, name: tenant.name })), leaving, alone };
}

/** What the account's user is told of a deletion plan (without whom each tenant passes to). */
export function shownPlan({ blockers, deletedProjects, leftTenants }: AccountDeletion): DeletionPlan {
  return { blockers, deletedProjects, leftTenants };
}

/**
 * Deletes the account as its plan says (the caller has checked there are no blockers). First it
 * gives up its platform ownership and its admin roles through the guarded demotions (see
 * account-step-down.ts): when one is refused (concurrent deletions or demotions of the other
 * owners or admins), nothing is changed and the answer is the refusal, with the blockers as they
 * are now. Then it leaves the shared tenants (owned projects pass to an admin), deletes the
 * projects that go with it, ends every project membership (those of the deleted projects too),
 * drops invitations it received, ends every session and access token, tells the other services
 * to erase their copies of the user's personal data (AccountDeleted: the audit trail's display
 * names), and removes the user record last, so an attempt cut short can be made again by signing
 * in (the message is repeated then; every erasure is idempotent).
 */
export async function deleteAccount(deps: Deps, user: { id: string }, planned: AccountDeletion): Promise<DeletionRefusal | 'deleted'> {
  const stepped = await stepDown(deps, user.id, planned.leaving);
  if (!('successions' in stepped)) return refusal(deps, user.id, stepped);
  const touched = new Set<string>();
  const ended: ProjectMember[] = [];
  const handedOver: ProjectRecord[] = [];
  const promoted: MembershipChangeInput[] = [];
  for (const { tenant, successorId } of stepped.successions) {
    const left = await deps.tenants.removeMember(tenant.id, user.id, successorId);
    ended.push(...left.ended);
    handedOver.push(...left.handedOver);
    promoted.push(...left.promoted.flatMap(({ member, previousPermissions }) => membershipPut(member, previousPermissions, user.id)));
  }
  const deletedProjects: ProjectRecord[] = [];
  for (const project of planned.deletedProjects) {
    const deleted = await deps.projects.markDeleted(project.id);
    if (deleted) deletedProjects.push(deleted);
  }
  for (const project of deletedProjects) touched.add(project.id);
  ended.push(...(await deps.projects.removeAllMembershipsOf(user.id)));
  for (const membership of ended) touched.add(membership.projectId);
  await Promise.all([...touched].map((projectId) => deps.accessChanges.announce({ projectId })));
  await deps.outbox.publish([
    ...handedOver.flatMap((project) => projectChangeMessages('ownerChanged', { after: project }, user.id, deps.clock(), user.id)),
    ...deletedProjects.flatMap((project) => projectSettingsChanged('deleted', project, user.id, deps.clock())),
    // The successor's membership of a project it now owns: the owner role replaced its permissions.
    ...membershipChangeMessages(promoted, deps.clock),
    ...membershipChangeMessages(ended.map((membership) => membershipEnded(membership, user.id)), deps.clock),
  ]);
  await deps.invitations.eraseFor(user.id);
  // A new credential generation before the sessions end: a sign-in whose session is written after
  // the revocation below sees it (or the record gone) and ends that session itself (openCheckedSession).
  await deps.users.endCredentials(user.id);
  await deps.sessions.revokeAll(user.id);
  const deleted: AccountDeleted = { userId: user.id, deletedAt: deps.clock() };
  // Through the outbox: kept until the bus has it (or, in process, until its consumers erased the names).
  await deps.outbox.publish([{ subject: accountDeletedSubject(user.id), msgId: accountDeletedMessageId(user.id), data: { ...deleted } }]);
  await deps.users.remove(user.id);
  for (const tenant of planned.alone) await deps.tenants.remove(tenant.id);
  await deps.tenants.remove(personalTenantId(user.id));
  return 'deleted';
}

/** A refused step-down as answered: the blocker it met first, then whatever else stands in the way now. */
async function refusal(deps: Deps, userId: string, refused: StepDownRefusal): Promise<DeletionRefusal> {
  if ('busy' in refused) return refused;
  const now = await planDeletion(deps, await deps.users.require(userId));
  return { blockers: [refused.blocker, ...now.blockers.filter((blocker) => !sameBlocker(blocker, refused.blocker))] };
}
