import type { TenantRole } from '@platform/contracts';
import type { IdentityDeps } from '../identity-deps';
import type { TenantRecord } from '../tenants/tenant-repository';
import { lastPlatformOwner, lastTenantAdmin, type DeletionBlocker } from './deletion-blockers';

type Deps = Pick<IdentityDeps, 'users' | 'tenants'>;
type Membership = TenantRecord & { role: TenantRole };

/** Another change of one of the account's roles is under way: the error code to answer. */
export type RoleChanging = { busy: 'IDENTITY_PLATFORM_OWNER_CHANGING' | 'IDENTITY_TENANT_ROLE_CHANGING' };

/** Why an account may not go now: what stands in its way, or a role change under way. */
export type StepDownRefusal = { blocker: DeletionBlocker } | RoleChanging;

/** Each tenant the account leaves, with the admin who inherits the projects it owns there. */
export type Successions = Array<{ tenant: Membership; successorId: string }>;

/**
 * Gives up, before an account is deleted, the roles others rely on: its platform ownership and its
 * admin role in each shared tenant it leaves, each through the guarded demotion, which never takes
 * the last owner or a tenant's last admin, also when several of them delete their accounts (or are
 * demoted) at once. Then picks each tenant's successor among the admins left. On a refusal, or an
 * error of the store halfway, what was given up is given back (unless it changed meanwhile) and
 * nothing else has changed.
 */
export async function stepDown(deps: Deps, userId: string, leaving: Membership[]): Promise<{ successions: Successions } | StepDownRefusal> {
  const givenUp: Array<() => Promise<void>> = [];
  let outcome: { successions: Successions } | StepDownRefusal;
  try {
    outcome = await giveUpRoles(deps, userId, leaving, givenUp);
  } catch (error) {
    // A store that failed halfway: the account stays, so it keeps the roles it had.
    await giveBack(givenUp).catch(() => undefined);
    throw error;
  }
  if (!('successions' in outcome)) await giveBack(givenUp);
  return outcome;
}

async function giveBack(givenUp: Array<() => Promise<void>>): Promise<void> {
  for (const restore of givenUp.reverse()) await restore();
}

/** The demotions and successions; each role given up leaves its give-back in `givenUp`. */
async function giveUpRoles(deps: Deps, userId: string, leaving: Membership[], givenUp: Array<() => Promise<void>>): Promise<{ successions: Successions } | StepDownRefusal> {
  const owner = await deps.users.demotePlatformOwner(userId);
  if (owner === 'last-owner') return { blocker: lastPlatformOwner() };
  if (owner === 'busy') return { busy: 'IDENTITY_PLATFORM_OWNER_CHANGING' };
  if (owner !== 'gone' && owner.changed) givenUp.push(() => deps.users.restorePlatformOwner(userId));

  const stillMember: Membership[] = [];
  for (const tenant of leaving) {
    const demoted = await deps.tenants.demoteAdmin(tenant.id, userId);
    if (demoted === 'last-admin') return { blocker: lastTenantAdmin(tenant) };
    if (demoted === 'busy') return { busy: 'IDENTITY_TENANT_ROLE_CHANGING' };
    // Removed from it meanwhile: nothing left to leave.
    if (demoted === 'gone') continue;
    if (demoted.changed) givenUp.push(() => deps.tenants.restoreAdmin(tenant.id, userId));
    stillMember.push(tenant);
  }

  const successions: Successions = [];
  for (const tenant of stillMember) {
    // Chosen after the demotion, among the admins it left (as the tenant member route does).
    const successor = (await deps.tenants.listMembers(tenant.id)).find((member) => member.role === 'admin' && member.userId !== userId);
    // Not expected (the demotion counted another admin), but then the tenant keeps this one.
    if (!successor) return { blocker: lastTenantAdmin(tenant) };
    successions.push({ tenant, successorId: successor.userId });
  }
  return { successions };
}
