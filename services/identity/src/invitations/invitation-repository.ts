import { randomUUID } from 'node:crypto';
import type { TenantRole } from '@platform/contracts';
import type { Clock } from '@platform/kit';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@platform/storage';
import type { Invitation, ProjectInvitation, TenantInvitation } from './invitation-schemas';

export const INVITATIONS_COLLECTION = 'invitations';

/** A pending invitation lapses this long after it was last sent. */
export const INVITATION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

type Stored = Invitation & { [field: string]: unknown };
type Target = { kind: 'project'; projectId: string } | { kind: 'tenant'; tenantId: string };
type Grant = { permissions: string[] } | { role: TenantRole };

/**
 * Pending invitations to a project or tenant. One per target and user: inviting again replaces
 * what it grants and renews it. Accepting or declining removes it; memberships are written by the
 * project and tenant repositories.
 */
export class InvitationRepository {
  private readonly invitations: Collection<Stored>;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.invitations = store.collection<Stored>(INVITATIONS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.invitations.ensureIndex({ keys: { kind: 1, projectId: 1, tenantId: 1, userId: 1 }, unique: true });
    await this.invitations.ensureIndex({ keys: { userId: 1 } });
  }

  /** Erases every invitation a deleted account received, to projects and tenants; answers how many. */
  eraseFor(userId: string): Promise<number> {
    return this.invitations.deleteMany({ userId });
  }

  /** Erases every invitation to a deleted tenant; answers how many. */
  eraseTenant(tenantId: string): Promise<number> {
    return this.invitations.deleteMany(this.targetFilter({ kind: 'tenant', tenantId }));
  }

  /** Erases every invitation to a purged project, answered or not; answers how many. */
  eraseProject(projectId: string): Promise<number> {
    return this.invitations.deleteMany(this.targetFilter({ kind: 'project', projectId }));
  }

  private targetFilter(target: Target): Record<string, string> {
    return target.kind === 'project' ? { kind: 'project', projectId: target.projectId } : { kind: 'tenant', tenantId: target.tenantId };
  }

  private live(): Record<string, unknown> {
    return { expiresAt: { $gt: this.clock() } };
  }

  /** Invites the user (or renews its pending invitation with the new grant). */
  invite(target: { kind: 'project'; projectId: string }, userId: string, invitedBy: string, grant: { permissions: string[] }): Promise<ProjectInvitation>;
  invite(target: { kind: 'tenant'; tenantId: string }, userId: string, invitedBy: string, grant: { role: TenantRole }): Promise<TenantInvitation>;
  async invite(target: Target, userId: string, invitedBy: string, grant: Grant): Promise<Invitation> {
    const now = this.clock();
    const filter = { ...this.targetFilter(target), userId };
    await this.invitations.deleteMany({ ...filter, expiresAt: { $lte: now } });
    const renewal = { ...grant, invitedBy, createdAt: now, expiresAt: now + INVITATION_LIFETIME_MS };
    const renewed = await this.invitations.updateOne(filter, { $set: renewal });
    if (renewed) return renewed;
    try {
      const invitation = { id: randomUUID(), ...filter, ...renewal } as Stored;
      await this.invitations.insertOne(invitation);
      return invitation;
    } catch (error) {
      // Invited twice at once: the other call's invitation is renewed instead.
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await this.invitations.updateOne(filter, { $set: renewal })) as Stored;
    }
  }

  /** Pending invitations to a project or tenant, oldest first. */
  async pendingFor(target: Target): Promise<Invitation[]> {
    return this.invitations.find({ ...this.targetFilter(target), ...this.live() }, { sort: { createdAt: 1, id: 1 } });
  }

  /** The user's pending invitations, newest first. */
  async pendingOf(userId: string): Promise<Invitation[]> {
    return this.invitations.find({ userId, ...this.live() }, { sort: { createdAt: -1, id: 1 } });
  }

  /** The user's pending invitation, or null (unknown, answered, withdrawn or lapsed). */
  async pendingById(userId: string, invitationId: string): Promise<Invitation | null> {
    return this.invitations.findOne({ id: invitationId, userId, ...this.live() });
  }

  /** Removes a pending invitation to the target; answers whether there was one. */
  async cancel(target: Target, invitationId: string): Promise<boolean> {
    return (await this.invitations.deleteMany({ id: invitationId, ...this.targetFilter(target) })) > 0;
  }

  /**
   * Takes the user's pending invitation out of the store and answers it, or null when there is
   * none: of two concurrent answers to one invitation only one gets it.
   */
  async take(userId: string, invitationId: string): Promise<Invitation | null> {
    const invitation = await this.invitations.findOne({ id: invitationId, userId, ...this.live() });
    if (!invitation) return null;
    return (await this.invitations.deleteMany({ id: invitationId, userId })) > 0 ? invitation : null;
  }
}
