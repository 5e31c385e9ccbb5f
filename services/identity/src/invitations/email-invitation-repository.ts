import { randomBytes, randomUUID } from 'node:crypto';
import { hashToken, type Clock } from '@platform/kit';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@platform/storage';
import { INVITATION_LIFETIME_MS } from './invitation-repository';
import type { EmailProjectInvitation } from './invitation-schemas';

export const EMAIL_INVITATIONS_COLLECTION = 'email-invitations';

/** Only the token's hash is stored: a copy of the store does not hold working links. */
type Stored = EmailProjectInvitation & { tokenHash: string; [field: string]: unknown };

/** A one-time link token of 256 random bits; made before the invitation is stored, so its mail can go first. */
export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

function view({ tokenHash: _secret, ...invitation }: Stored): EmailProjectInvitation {
  return invitation as EmailProjectInvitation;
}

/**
 * Pending project invitations to an email address, each answered through a one-time link token.
 * One per project and address: inviting the address again replaces its token (the old link stops
 * working) and renews it. Kept apart from user-id invitations, whose unique index is per user.
 */
export class EmailInvitationRepository {
  private readonly invitations: Collection<Stored>;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.invitations = store.collection<Stored>(EMAIL_INVITATIONS_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.invitations.ensureIndex({ keys: { projectId: 1, email: 1 }, unique: true });
    await this.invitations.ensureIndex({ keys: { tokenHash: 1 }, unique: true });
  }

  private live(): Record<string, unknown> {
    return { expiresAt: { $gt: this.clock() } };
  }

  /** Invites the address (or renews its pending invitation) with the link token `token`; answers the invitation. */
  async invite(projectId: string, email: string, invitedBy: string, permissions: string[], token: string): Promise<EmailProjectInvitation> {
    const now = this.clock();
    const filter = { kind: 'project' as const, projectId, email };
    await this.invitations.deleteMany({ ...filter, expiresAt: { $lte: now } });
    const renewal = { permissions, invitedBy, tokenHash: hashToken(token), createdAt: now, expiresAt: now + INVITATION_LIFETIME_MS };
    const renewed = await this.invitations.updateOne(filter, { $set: renewal });
    if (renewed) return view(renewed);
    try {
      const invitation: Stored = { id: randomUUID(), ...filter, ...renewal };
      await this.invitations.insertOne(invitation);
      return view(invitation);
    } catch (error) {
      // Invited twice at once: the other call's invitation is renewed instead.
      if (!(error instanceof DuplicateKeyError)) throw error;
      return view((await this.invitations.updateOne(filter, { $set: renewal }))!);
    }
  }

  /** The project's pending email invitations, oldest first. */
  /** Erases every invitation link of a purged project; answers how many. */
  eraseProject(projectId: string): Promise<number> {
    return this.invitations.deleteMany({ projectId });
  }

  async pendingFor(projectId: string): Promise<EmailProjectInvitation[]> {
    return (await this.invitations.find({ projectId, ...this.live() }, { sort: { createdAt: 1, id: 1 } })).map(view);
  }

  /** Removes a pending invitation to the project; answers whether there was one. */
  async cancel(projectId: string, invitationId: string): Promise<boolean> {
    return (await this.invitations.deleteMany({ id: invitationId, projectId })) > 0;
  }

  /** The pending invitation the link token opens, or null (unknown, answered, withdrawn, lapsed or replaced). */
  async findByToken(token: string): Promise<EmailProjectInvitation | null> {
    const invitation = await this.invitations.findOne({ tokenHash: hashToken(token), ...this.live() });
    return invitation ? view(invitation) : null;
  }

  /** Takes the token's invitation out of the store, or null: of two concurrent answers only one gets it. */
  async take(token: string): Promise<EmailProjectInvitation | null> {
    const invitation = await this.findByToken(token);
    if (!invitation) return null;
    return (await this.invitations.deleteMany({ id: invitation.id, tokenHash: hashToken(token) })) > 0 ? invitation : null;
  }
}
