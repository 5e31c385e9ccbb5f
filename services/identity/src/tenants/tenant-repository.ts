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
import { DEMOTION_WAIT_MS, GuardedDemotion } from '../guarded-demotion';

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
   * did not finish within `DEMOTION_WAIT_MS`. A demotion is guarded (see `demoteAdmin`); a change
   * of a member whose demotion is under way waits for it.
   */
  async changeRole(tenantId: string, userId: string, role: TenantRole): Promise<{ member: TenantMember } | 'gone' | 'last-admin' | 'busy'> {
    if (role === 'member') {
      const demoted = await this.demoteAdmin(tenantId, userId);
      return typeof demoted === 'string' ? demoted : { member: demoted.member };
    }
    const id = tenantMemberId(tenantId, userId);
    const demotion = this.adminDemotion(tenantId);
    const deadline = Date.now() + DEMOTION_WAIT_MS;
    for (;;) {
      const current = await demotion.settled(id, deadline);
      if (current === 'busy') return 'busy';
      if (!current) return 'gone';
      if (current.role === 'admin') return { member: memberRecord(current) };
      const promoted = await this.members.updateOne({ id, role: current.role }, { $set: { role: 'admin' } });
      if (promoted) return { member: memberRecord(promoted) };
    }
  }

  /**
   * Makes the member a plain member, never the tenant's last admin, also against concurrent
   * demotions (a GuardedDemotion: its membership is marked, its role still admin, while the other
   * admins without a mark are counted). `changed`: it was admin until now.
   */
  async demoteAdmin(tenantId: string, userId: string): Promise<{ member: TenantMember; changed: boolean } | 'gone' | 'last-admin' | 'busy'> {
    const outcome = await this.adminDemotion(tenantId).demote(tenantMemberId(tenantId, userId));
    if (outcome === 'last') return 'last-admin';
    if (typeof outcome === 'string') return outcome;
    return { member: memberRecord(outcome.after), changed: outcome.changed };
  }

  /** Gives an admin whose removal was refused after its demotion its role back, unless it changed meanwhile. */
  async restoreAdmin(tenantId: string, userId: string): Promise<void> {
    await this.adminDemotion(tenantId).giveBack(tenantMemberId(tenantId, userId));
  }

  private adminDemotion(tenantId: string): GuardedDemotion<Stored<TenantMember>> {
    return new GuardedDemotion({ collection: this.members, clock: this.clock, markField: 'demoting', holds: { role: 'admin' }, demoted: { role: 'member' }, group: { tenantId } });
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
