import {
  PROJECT_MEMBERS_COLLECTION,
  PROJECTS_COLLECTION,
  projectMemberId,
  TENANT_MEMBERS_COLLECTION,
  tenantMemberId,
  type Access,
  type Principal,
  type ProjectMember,
  type TenantMember,
} from '@platform/contracts';
import type { DocumentStore } from '@platform/storage';
import { LRUCache } from 'lru-cache';
import { AppError } from './errors';
import type { ProjectCaller } from './rls';
import { TypeReadAccess } from './type-read-access';

export interface ProjectRecord {
  id: string;
  name: string;
  ownerId: string;
  /** The tenant that owns the project (absent only on projects created before tenants existed). */
  tenantId?: string;
  access?: Access;
  aiEnabled: boolean;
  createdAt: number;
  updatedAt: number;
  revision: number;
  deletedAt?: number;
  /** When identity purged the deleted project's data; the record stays as a tombstone. */
  purgedAt?: number;
}

/** The one answer for a project that is unknown, deleted or not the caller's: ids cannot be probed. */
export const projectNotFound = (): AppError => new AppError(404, 'PROJECT_NOT_FOUND', 'Project not found');

/** The project unless it is unknown or deleted: for public routes, whose callers have no standing in it. */
export async function findLiveProject(store: DocumentStore, projectId: string): Promise<ProjectRecord | null> {
  const project = await store.collection<ProjectRecord & { [k: string]: unknown }>(PROJECTS_COLLECTION).findById(projectId);
  return project && project.deletedAt === undefined ? project : null;
}

/** Whether an access token made for some projects only (`projectIds`) reaches this one; any other caller does. */
function withinTokenScope(projectId: string, principal: Extract<Principal, { kind: 'user' }>): boolean {
  return principal.projectIds === undefined || principal.projectIds.includes(projectId);
}

export interface ProjectContext {
  project: ProjectRecord;
  caller: ProjectCaller;
}

/**
 * Looks up a caller's standing in a project from the shared store (identity owns the records;
 * every service reads them here, never from the client). Non-members, anonymous callers and
 * unknown projects all get the same 404 so project ids cannot be probed.
 *
 * Answers are cached for `cacheMs`, and a change forgets them at once: identity calls `forget`
 * (or `forgetAll` for tenant-wide changes) before it answers, and AccessChanges carries the same
 * call to every other process over the bus. The expiry is then only the fallback for a missed
 * notice (the bus was down). A lookup that was already reading the store when its project was
 * forgotten answers what it read but does not cache it, so no stale answer outlives the change.
 */
export class ProjectAccess {
  private readonly cache = new LRUCache<string, { value: ProjectContext | null; at: number }>({ max: 10_000 });
  /** Bumped by every forget of a project; a lookup caches only if its project's stayed the same. */
  private readonly generations = new Map<string, number>();
  /** Bumped by forgetAll. */
  private epoch = 0;
  /** The read rules of the project's types, cached and forgotten with the project's standing. */
  readonly types: TypeReadAccess;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: () => number,
    readonly cacheMs = 1_000,
  ) {
    this.types = new TypeReadAccess(store, clock, cacheMs);
  }

  /** The project and the caller's standing in it, or 404. */
  async require(projectId: string, principal: Principal): Promise<ProjectContext> {
    const context = await this.lookup(projectId, principal);
    if (!context) throw projectNotFound();
    return context;
  }

  /** Forgets cached answers for a project (its membership, permissions, owner or settings changed). */
  forget(projectId: string): void {
    this.types.forget(projectId);
    if (this.generations.size >= 10_000) return this.forgetAll();
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
    // The keys first: lru-cache does not promise that an iteration survives deletes made inside it.
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${projectId}\u0000`)) this.cache.delete(key);
  }

  /** Forgets every cached answer (a tenant's admins changed, or notices may have been missed). */
  forgetAll(): void {
    this.types.forgetAll();
    this.epoch += 1;
    this.generations.clear();
    this.cache.clear();
  }

  private async lookup(projectId: string, principal: Principal): Promise<ProjectContext | null> {
    if (principal.kind !== 'user' || !withinTokenScope(projectId, principal)) return null;
    // A session from before a promotion or demotion may carry another platformOwner than a newer one.
    const key = `${projectId}\u0000${principal.userId}\u0000${principal.platformOwner ? 'owner' : ''}`;
    const now = this.clock();
    const cached = this.cache.get(key);
    if (cached && now - cached.at < this.cacheMs) return cached.value;
    const generation = this.generations.get(projectId) ?? 0;
    const epoch = this.epoch;
    const value = await this.load(projectId, principal.userId, principal.platformOwner);
    if (epoch !== this.epoch || generation !== (this.generations.get(projectId) ?? 0)) return value;
    this.cache.set(key, { value, at: now });
    return value;
  }

  /**
   * The caller's standing in a project record, deleted or not: identity reads a deleted project's
   * this way to let its owners restore it. Null for a non-member (and for anyone but a user).
   */
  async standingIn(project: ProjectRecord, principal: Principal): Promise<ProjectCaller | null> {
    if (principal.kind !== 'user' || !withinTokenScope(project.id, principal)) return null;
    const member = await this.store.collection<ProjectMember & { [k: string]: unknown }>(PROJECT_MEMBERS_COLLECTION).findById(projectMemberId(project.id, principal.userId));
    return this.callerIn(project, member, principal.userId, principal.platformOwner);
  }

  private async load(projectId: string, userId: string, platformOwner: boolean): Promise<ProjectContext | null> {
    const [project, member] = await Promise.all([
      this.store.collection<ProjectRecord & { [k: string]: unknown }>(PROJECTS_COLLECTION).findById(projectId),
      this.store.collection<ProjectMember & { [k: string]: unknown }>(PROJECT_MEMBERS_COLLECTION).findById(projectMemberId(projectId, userId)),
    ]);
    if (!project || project.deletedAt !== undefined) return null;
    const caller = await this.callerIn(project, member, userId, platformOwner);
    return caller && { project, caller };
  }

  private async callerIn(project: ProjectRecord, member: ProjectMember | null, userId: string, platformOwner: boolean): Promise<ProjectCaller | null> {
    const owner = platformOwner || member?.role === 'owner' || project.ownerId === userId;
    // A tenant admin sees and manages every project of the tenant, member or not.
    const tenantAdmin = !owner && project.tenantId !== undefined && (await this.isTenantAdmin(project.tenantId, userId));
    if (!member && !owner && !tenantAdmin) return null;
    return { userId, superuser: owner || tenantAdmin, permissions: new Set(member?.permissions ?? []) };
  }

  private async isTenantAdmin(tenantId: string, userId: string): Promise<boolean> {
    const membership = await this.store.collection<TenantMember & { [k: string]: unknown }>(TENANT_MEMBERS_COLLECTION).findById(tenantMemberId(tenantId, userId));
    return membership?.role === 'admin';
  }
}
