import { randomUUID } from 'node:crypto';
import { PROJECT_MEMBERS_COLLECTION, PROJECTS_COLLECTION, projectMemberId, scopeAccess, scopePermission, type Access, type ProjectMember } from '@platform/contracts';
import type { Clock, ProjectRecord } from '@platform/kit';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@platform/storage';
import { identityError } from '../errors';

type StoredProject = ProjectRecord & { [field: string]: unknown };
type StoredMember = ProjectMember & { [field: string]: unknown };

/**
 * The access of a project created without one: changing the project (its members and their
 * permissions, AI settings, batch RLS) and deleting it are left to the owner (and the tenant's
 * admins), since a rule-less operation would be open to every member. Reading stays open to members.
 */
const OWNER_MANAGED_PROJECT: Access = { update: { userIds: [] }, delete: { userIds: [] } };

/** Projects and their members as identity stores them; other services read them through kit's ProjectAccess. */
export class ProjectRepository {
  private readonly projects: Collection<StoredProject>;
  private readonly members: Collection<StoredMember>;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.projects = store.collection<StoredProject>(PROJECTS_COLLECTION);
    this.members = store.collection<StoredMember>(PROJECT_MEMBERS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.members.ensureIndex({ keys: { userId: 1 } });
    await this.members.ensureIndex({ keys: { projectId: 1 } });
  }

  /** Creates the project with `ownerId` as its owner member. */
  async create(input: { name: string; ownerId: string; tenantId: string; access?: Access }): Promise<ProjectRecord> {
    const id = randomUUID();
    const now = this.clock();
    const project: StoredProject = {
      id,
      name: input.name,
      ownerId: input.ownerId,
      tenantId: input.tenantId,
      access: input.access ? scopeAccess(id, input.access) : OWNER_MANAGED_PROJECT,
      aiEnabled: false,
      createdAt: now,
      updatedAt: now,
      revision: 0,
    };
    // One atomic section (embedded store); on MongoDB the membership goes first, so a crash in
    // between leaves a membership without a project, which ProjectAccess ignores, never a project
    // nobody can reach.
    await this.store.atomically(async (section) => {
      await section.collection<StoredMember>(PROJECT_MEMBERS_COLLECTION).insertOne({ id: projectMemberId(id, input.ownerId), projectId: id, userId: input.ownerId, role: 'owner', permissions: [], createdAt: now });
      await section.collection<StoredProject>(PROJECTS_COLLECTION).insertOne(project);
    });
    return project;
  }

  /** Projects the user is a member of, plus every project of the tenants it administers. */
  async listForUser(userId: string, adminTenantIds: string[] = []): Promise<ProjectRecord[]> {
    const memberships = await this.members.find({ userId }, { projection: { projectId: 1 } });
    if (memberships.length === 0 && adminTenantIds.length === 0) return [];
    const reachable = [{ id: { $in: memberships.map((m) => m.projectId) } }, ...(adminTenantIds.length ? [{ tenantId: { $in: adminTenantIds } }] : [])];
    return this.projects.find({ $or: reachable, deletedAt: { $exists: false } }, { sort: { createdAt: 1, id: 1 } });
  }

  /** Deleted projects the user is a member of, or of the tenants it administers; the caller decides which it may restore. */
  async listDeletedForUser(userId: string, adminTenantIds: string[]): Promise<ProjectRecord[]> {
    const memberships = await this.members.find({ userId }, { projection: { projectId: 1 } });
    const reachable = [{ id: { $in: memberships.map((m) => m.projectId) } }, { ownerId: userId }, ...(adminTenantIds.length ? [{ tenantId: { $in: adminTenantIds } }] : [])];
    return this.projects.find({ $or: reachable, deletedAt: { $exists: true } }, { sort: { deletedAt: -1, id: 1 } });
  }

  async findDeleted(projectId: string): Promise<ProjectRecord | null> {
    return this.projects.findOne({ id: projectId, deletedAt: { $exists: true } });
  }

  /** Marks the project deleted; null when it is gone or already deleted. */
  markDeleted(projectId: string): Promise<ProjectRecord | null> {
    const now = this.clock();
    return this.projects.updateOne({ id: projectId, deletedAt: { $exists: false } }, { $set: { deletedAt: now, updatedAt: now }, $inc: { revision: 1 } });
  }

  /** Clears the project's deletion; null when it is gone, not deleted, or purged. */
  restore(projectId: string): Promise<ProjectRecord | null> {
    return this.projects.updateOne({ id: projectId, deletedAt: { $exists: true }, purgedAt: { $exists: false } }, { $unset: { deletedAt: '' }, $set: { updatedAt: this.clock() }, $inc: { revision: 1 } });
  }

  /** Deleted projects deleted at or before `cutoff` and not purged yet, oldest first. */
  dueForPurge(cutoff: number, limit: number): Promise<ProjectRecord[]> {
    return this.projects.find({ deletedAt: { $lte: cutoff }, purgedAt: { $exists: false } }, { sort: { deletedAt: 1, id: 1 }, limit });
  }

  /**
   * Ends a purged project's memberships and marks it purged. The record stays, as a tombstone:
   * its id is never taken again, and platform owners see when it went.
   */
  async markPurged(projectId: string): Promise<number> {
    const memberships = await this.members.deleteMany({ projectId });
    await this.projects.updateOne({ id: projectId }, { $set: { purgedAt: this.clock() } });
    return memberships;
  }

  /** The project unless it is gone or deleted. */
  async find(projectId: string): Promise<ProjectRecord | null> {
    return this.projects.findOne({ id: projectId, deletedAt: { $exists: false } });
  }

  async listAll(page: { skip: number; limit: number }): Promise<{ items: ProjectRecord[]; total: number }> {
    const [items, total] = await Promise.all([this.projects.find({}, { sort: { createdAt: 1, id: 1 }, ...page }), this.projects.count()]);
    return { items, total };
  }

  async listMembers(projectId: string): Promise<ProjectMember[]> {
    return this.members.find({ projectId }, { sort: { createdAt: 1, userId: 1 } });
  }

  async findMember(projectId: string, userId: string): Promise<ProjectMember | null> {
    return this.members.findById(projectMemberId(projectId, userId));
  }

  /**
   * Adds the member (one who accepted an invitation) or, for one that is a member already, replaces
   * its permissions; answers the member and, for the latter, its permissions before.
   */
  async putMember(projectId: string, userId: string, permissions: string[]): Promise<{ member: ProjectMember; previousPermissions?: string[] }> {
    const scoped = [...new Set(permissions.map((permission) => scopePermission(projectId, permission)))];
    for (;;) {
      const member: StoredMember = { id: projectMemberId(projectId, userId), projectId, userId, role: 'member', permissions: scoped, createdAt: this.clock() };
      try {
        await this.members.insertOne(member);
        return { member };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      // Removed meanwhile: added again, as the invitation it accepted asks.
      const replaced = await this.replacePermissions(projectId, userId, permissions);
      if (replaced) return replaced;
    }
  }

  /**
   * Replaces a member's permissions (a compare-and-set, so two changes at once each see the
   * other's); answers the member and its permissions before, or null when it is not a member (never
   * adds one: that takes the user's consent). The owner's membership cannot be changed (409).
   */
  async replacePermissions(projectId: string, userId: string, permissions: string[]): Promise<{ member: ProjectMember; previousPermissions: string[] } | null> {
    const scoped = [...new Set(permissions.map((permission) => scopePermission(projectId, permission)))];
    for (;;) {
      const current = await this.members.findById(projectMemberId(projectId, userId));
      if (!current) return null;
      if (current.role !== 'member') throw identityError('IDENTITY_OWNER_MEMBERSHIP');
      const updated = await this.members.updateOne({ id: current.id, role: 'member', permissions: current.permissions }, { $set: { permissions: scoped } });
      if (updated) return { member: updated, previousPermissions: current.permissions };
    }
  }

  /** Ends a member's membership (never the owner's); answers the membership as it was, or null when there was none. */
  async removeMember(projectId: string, userId: string): Promise<ProjectMember | null> {
    for (;;) {
      const current = await this.members.findById(projectMemberId(projectId, userId));
      if (!current || current.role !== 'member') return null;
      if ((await this.members.deleteMany({ id: current.id, role: 'member', permissions: current.permissions })) > 0) return current;
    }
  }

  /** Every project membership of the user, owner ones included. */
  async membershipsOf(userId: string): Promise<ProjectMember[]> {
    return this.members.find({ userId });
  }

  /** Ends every project membership of a deleted account, owner ones included; answers the memberships. */
  async removeAllMembershipsOf(userId: string): Promise<ProjectMember[]> {
    const memberships = await this.membershipsOf(userId);
    await this.members.deleteMany({ userId });
    return memberships;
  }

  /** Whether two users are members of at least one common project. */
  async shareAProject(userA: string, userB: string): Promise<boolean> {
    const projectsOfA = await this.members.find({ userId: userA }, { projection: { projectId: 1 } });
    if (projectsOfA.length === 0) return false;
    return (await this.members.count({ userId: userB, projectId: { $in: projectsOfA.map((m) => m.projectId) } })) > 0;
  }

  /** The project in its new tenant; null when it is gone or deleted. */
  moveToTenant(projectId: string, tenantId: string): Promise<ProjectRecord | null> {
    return this.projects.updateOne({ id: projectId, deletedAt: { $exists: false } }, { $set: { tenantId, updatedAt: this.clock() }, $inc: { revision: 1 } });
  }

  /** The renamed project; null when it is gone. */
  rename(projectId: string, name: string): Promise<ProjectRecord | null> {
    return this.projects.updateOne({ id: projectId }, { $set: { name, updatedAt: this.clock() }, $inc: { revision: 1 } });
  }

  /** The project with its AI setting; null when it is gone. */
  setAiEnabled(projectId: string, aiEnabled: boolean): Promise<ProjectRecord | null> {
    return this.projects.updateOne({ id: projectId }, { $set: { aiEnabled, updatedAt: this.clock() }, $inc: { revision: 1 } });
  }
}
