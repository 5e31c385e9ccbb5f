import { randomUUID } from 'node:crypto';
import {
  PROJECT_MEMBERS_COLLECTION,
  PROJECTS_COLLECTION,
  personalTenantId,
  projectMemberId,
  TENANT_MEMBERS_COLLECTION,
  TENANTS_COLLECTION,
  tenantMemberId,
  type ProjectMember,
  type TenantMember,
  type TenantRole,
} from '@platform/contracts';
import type { Clock, ProjectRecord } from '@platform/kit';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@platform/storage';
import { identityError } from '../errors';

export interface TenantRecord {
  id: string;
  name: string;
  /** A user's own tenant: created with the account, holds only that user. */
  personal: boolean;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

type Stored<T> = T & { [field: string]: unknown };

/** A demotion's mark older than this is a process stopped halfway: it counts for nothing. */
const DEMOTION_LEASE_MS = 10_000;
/** How long a role change waits for another request's demotion of the same member before answering `busy`. */
const DEMOTION_WAIT_MS = 3_000;

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
}

/** A membership without the mark a demotion under way keeps on it. */
function memberRecord({ id, tenantId, userId, role, createdAt }: Stored<TenantMember>): TenantMember {
  return { id, tenantId, userId, role, createdAt };
}

/** Tenants and their members as identity stores them; ProjectAccess reads the admin role from here. */
export class TenantRepository {
  private readonly tenants: Collection<Stored<TenantRecord>>;
  private readonly members: Collection<Stored<TenantMember>>;
  private readonly projects: Collection<Stored<ProjectRecord>>;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.tenants = store.collection(TENANTS_COLLECTION);
    this.members = store.collection(TENANT_MEMBERS_COLLECTION);
    this.projects = store.collection(PROJECTS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.members.ensureIndex({ keys: { userId: 1 } });
    await this.members.ensureIndex({ keys: { tenantId: 1 } });
    await this.projects.ensureIndex({ keys: { tenantId: 1 } });
  }

  /** A new tenant with its creator as admin. */
  async create(name: string, creatorId: string): Promise<TenantRecord> {
    return this.insert({ id: randomUUID(), name, personal: false, createdBy: creatorId });
  }

  /** The user's personal tenant, created if it does not exist yet (accounts older than tenants). */
  async personalTenant(user: { id: string; displayName: string }): Promise<TenantRecord> {
    const id = personalTenantId(user.id);
    const existing = await this.tenants.findById(id);
    if (existing) return existing;
    try {
      return await this.insert({ id, name: `${user.displayName}'s workspace`, personal: true, createdBy: user.id });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await this.tenants.findById(id)) as TenantRecord;
    }
  }

  private async insert(fields: Omit<TenantRecord, 'createdAt' | 'updatedAt'>): Promise<TenantRecord> {
    const now = this.clock();
    const tenant: Stored<TenantRecord> = { ...fields, createdAt: now, updatedAt: now };
    // The admin membership first: a crash in between leaves a membership nothing refers to.
    await this.addMember(tenant.id, fields.createdBy, 'admin');
    await this.tenants.insertOne(tenant);
    return tenant;
  }

  async find(tenantId: string): Promise<TenantRecord | null> {
    return this.tenants.findById(tenantId);
  }

  async membership(tenantId: string, userId: string): Promise<TenantMember | null> {
    const member = await this.members.findById(tenantMemberId(tenantId, userId));
    return member && memberRecord(member);
  }

  /** The tenants the user belongs to, with the user's role in each. */
  async listForUser(userId: string): Promise<Array<TenantRecord & { role: TenantRole }>> {
    const memberships = await this.members.find({ userId });
    if (memberships.length === 0) return [];
    const roles = new Map(memberships.map((membership) => [membership.tenantId, membership.role]));
    const tenants = await this.tenants.find({ id: { $in: [...roles.keys()] } }, { sort: { createdAt: 1, id: 1 } });
    return tenants.map((tenant) => ({ ...tenant, role: roles.get(tenant.id) as TenantRole }));
  }

  /** Whether two users belong to one tenant (never a personal one: it has only its user). */
  async shareATenant(userA: string, userB: string): Promise<boolean> {
    const tenantsOfA = await this.members.find({ userId: userA }, { projection: { tenantId: 1 } });
    if (tenantsOfA.length === 0) return false;
    return (await this.members.count({ userId: userB, tenantId: { $in: tenantsOfA.map((membership) => membership.tenantId) } })) > 0;
  }

  async listMembers(tenantId: string): Promise<TenantMember[]> {
    return (await this.members.find({ tenantId }, { sort: { createdAt: 1, userId: 1 } })).map(memberRecord);
  }

  async rename(tenantId: string, name: string): Promise<TenantRecord | null> {
    return this.tenants.updateOne({ id: tenantId }, { $set: { name, updatedAt: this.clock() } });
  }

  /**
   * Adds a member (a new tenant's creator, an accepted invitation): inserts only, never changes the
   * role of someone who is a member already; for them it answers the membership as stored, with
   * `created: false`.
   */
  async addMember(tenantId: string, userId: string, role: TenantRole): Promise<{ member: TenantMember; created: boolean }> {
    const member: Stored<TenantMember> = { id: tenantMemberId(tenantId, userId), tenantId, userId, role, createdAt: this.clock() };
    for (;;) {
      try {
        await this.members.insertOne(member);
        return { member, created: true };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      const existing = await this.members.findById(member.id);
      // Removed between the insert and the read: try the insert again.
      if (existing) return { member: memberRecord(existing), created: false };
    }
  }

  async adminCount(tenantId: string): Promise<number> {
    return this.members.count({ tenantId, role: 'admin' });
  }

  /**
   * Changes an existing member's role; never adds one. Every write is conditional on the role just
   * read (a compare-and-set), and a miss reads again and decides again, so concurrent requests never
   * overwrite each other and the answer is the membership as stored. `gone`: not a member (any
   * more); `last-admin`: it is the tenant's last admin; `busy`: another request's demotion of it
   * did not finish within `DEMOTION_WAIT_MS`.
   *
   * Demoting an admin never shows it as a member before the demotion is certain: its membership is
   * first marked (`demoting`, the role still admin), then the tenant's admins without a mark are
   * counted, and only when one is left does the mark become the role `member`; else the mark is
   * taken back. Of two admins demoting each other at once, each sees the other's mark or finished
   * demotion, so one admin always stays; when both find only marks they step back and try again
   * after a random pause, and one goes through. A change of a marked member waits for the mark to
   * go. A mark older than `DEMOTION_LEASE_MS` (a process stopped halfway) counts for nothing and
   * can no longer be completed.
   */
  async changeRole(tenantId: string, userId: string, role: TenantRole): Promise<{ member: TenantMember } | 'gone' | 'last-admin' | 'busy'> {
    const id = tenantMemberId(tenantId, userId);
    const deadline = Date.now() + DEMOTION_WAIT_MS;
    for (;;) {
      const current = await this.members.findById(id);
      if (!current) return 'gone';
      if (this.freshMark(current)) {
        if (Date.now() > deadline) return 'busy';
        await pause();
        continue;
      }
      if (current.role === role) return { member: memberRecord(current) };
      if (role === 'admin') {
        const promoted = await this.members.updateOne({ id, role: current.role }, { $set: { role: 'admin' } });
        if (promoted) return { member: memberRecord(promoted) };
        continue;
      }
      const outcome = await this.demote(tenantId, id);
      if (outcome === 'last-admin') return 'last-admin';
      if (outcome === 'crossed') {
        if (Date.now() > deadline) return 'busy';
        await pause();
      } else if (outcome !== 'missed') return { member: outcome };
    }
  }

  /**
   * One attempt to demote the admin `id` (see `changeRole`): the membership demoted, `last-admin`
   * (no other admin and no other demotion under way), `crossed` (no other admin without a mark, but
   * others being demoted: stepped back), `missed` (it changed since it was read).
   */
  private async demote(tenantId: string, id: string): Promise<TenantMember | 'last-admin' | 'crossed' | 'missed'> {
    const token = randomUUID();
    const unmarked = this.unmarkedFilter();
    if (!(await this.members.updateOne({ id, role: 'admin', ...unmarked }, { $set: { demoting: { token, at: this.clock() } } }))) return 'missed';
    const mine = { id, 'demoting.token': token };
    if ((await this.members.count({ tenantId, role: 'admin', ...this.unmarkedFilter() })) > 0) {
      const demoted = await this.members.updateOne({ ...mine, 'demoting.at': { $gte: this.clock() - DEMOTION_LEASE_MS } }, { $set: { role: 'member' }, $unset: { demoting: '' } });
      if (demoted) return memberRecord(demoted);
      await this.members.updateOne(mine, { $unset: { demoting: '' } });
      return 'missed';
    }
    if (!(await this.members.updateOne(mine, { $unset: { demoting: '' } }))) return 'missed';
    const others = await this.members.count({ tenantId, role: 'admin', id: { $ne: id }, 'demoting.at': { $gte: this.clock() - DEMOTION_LEASE_MS } });
    return others > 0 ? 'crossed' : 'last-admin';
  }

  /** Gives an admin whose removal was refused after its demotion its role back, unless it changed meanwhile. */
  async restoreAdmin(tenantId: string, userId: string): Promise<void> {
    await this.members.updateOne({ id: tenantMemberId(tenantId, userId), role: 'member' }, { $set: { role: 'admin' } });
  }

  private freshMark(member: Stored<TenantMember>): { token: string; at: number } | undefined {
    const mark = member.demoting as { token: string; at: number } | undefined;
    return mark && mark.at >= this.clock() - DEMOTION_LEASE_MS ? mark : undefined;
  }

  private unmarkedFilter() {
    return { $or: [{ demoting: { $exists: false } }, { 'demoting.at': { $lt: this.clock() - DEMOTION_LEASE_MS } }] };
  }

  /**
   * Removes the user from the tenant and from every project of it. Projects the user owns pass to
   * `successorId` (the admin removing them, or another admin when they leave), so no project of
   * the tenant is left without an owner. Answers the project memberships the user lost, the
   * projects that passed to the successor, as they are now, and the successor's memberships of
   * those projects that it held before and that became owner memberships (`previousPermissions`:
   * what it held, which the owner role replaces by none).
   */
  async removeMember(
    tenantId: string,
    userId: string,
    successorId: string,
  ): Promise<{ ended: ProjectMember[]; handedOver: ProjectRecord[]; promoted: Array<{ member: ProjectMember; previousPermissions: string[] }> }> {
    // Ownership handover and removal in one atomic section: never a project without its owner's membership.
    return this.store.atomically(async (section) => {
      const members = section.collection<Stored<TenantMember>>(TENANT_MEMBERS_COLLECTION);
      const projects = section.collection<Stored<ProjectRecord>>(PROJECTS_COLLECTION);
      const projectMembers = section.collection<Stored<ProjectMember>>(PROJECT_MEMBERS_COLLECTION);
      const projectIds = (await projects.find({ tenantId }, { projection: { id: 1 } })).map((project) => project.id);
      const now = this.clock();
      const handedOver: ProjectRecord[] = [];
      const promoted: Array<{ member: ProjectMember; previousPermissions: string[] }> = [];
      for (const project of await projects.find({ tenantId, ownerId: userId })) {
        const passed = await projects.updateOne({ id: project.id }, { $set: { ownerId: successorId, updatedAt: now }, $inc: { revision: 1 } });
        if (passed) handedOver.push(passed);
        const successorMembership = projectMemberId(project.id, successorId);
        const before = await projectMembers.findById(successorMembership);
        const after = await projectMembers.updateOne({ id: successorMembership }, { $set: { role: 'owner', permissions: [] } });
        if (after) promoted.push({ member: after, previousPermissions: before?.permissions ?? [] });
        else await projectMembers.insertOne({ id: successorMembership, projectId: project.id, userId: successorId, role: 'owner', permissions: [], createdAt: now });
      }
      const memberships = await projectMembers.find({ userId, projectId: { $in: projectIds } });
      await projectMembers.deleteMany({ userId, projectId: { $in: projectIds } });
      await members.deleteMany({ id: tenantMemberId(tenantId, userId) });
      return { ended: memberships, handedOver, promoted };
    });
  }

  /** Removes a tenant and its memberships (a deleted account's personal tenant, a shared tenant its admins deleted). */
  async remove(tenantId: string): Promise<void> {
    await this.members.deleteMany({ tenantId });
    await this.tenants.deleteMany({ id: tenantId });
  }

  async projectsOf(tenantId: string): Promise<ProjectRecord[]> {
    return this.projects.find({ tenantId, deletedAt: { $exists: false } }, { sort: { createdAt: 1, id: 1 } });
  }

  /** Ids of the tenants where the user is admin (their projects are visible to the user). */
  async adminTenantIds(userId: string): Promise<string[]> {
    return (await this.members.find({ userId, role: 'admin' }, { projection: { tenantId: 1 } })).map((membership) => membership.tenantId);
  }

  async listAll(page: { skip: number; limit: number }): Promise<{ items: TenantRecord[]; total: number }> {
    const [items, total] = await Promise.all([this.tenants.find({}, { sort: { createdAt: 1, id: 1 }, ...page }), this.tenants.count()]);
    return { items, total };
  }
}

export function requireTenantRole(member: TenantMember | null, role: TenantRole): TenantMember {
  if (!member) throw identityError('IDENTITY_TENANT_NOT_FOUND');
  if (role === 'admin' && member.role !== 'admin') throw identityError('IDENTITY_TENANT_ADMIN_ONLY');
  return member;
}
