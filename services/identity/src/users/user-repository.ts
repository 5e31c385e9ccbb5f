import type { Clock } from '@platform/kit';
import type { Collection, DocumentStore, UpdateModifier } from '@platform/storage';
import { identityError } from '../errors';
import { GuardedDemotion } from '../guarded-demotion';
import type { CodeMatch, PendingTwoFactor, TwoFactor } from '../auth/two-factor';
import { credentialGenerationOf, USERS_COLLECTION, type StoredUser, type UserRecord } from './user-record';

type UserDocument = UserRecord & { [field: string]: unknown };

/** Reads never load the password hash or the second factor's secrets, so no route can leak them by accident. */
const WITHOUT_SECRET = { projection: { passwordHash: 0, twoFactor: 0, twoFactorPending: 0 } } as const;

/** The user without its secrets, for a record read with them. */
export function withoutSecret(user: UserRecord): StoredUser {
  const { passwordHash: _password, twoFactor: _factor, twoFactorPending: _pending, ...stored } = user;
  return stored;
}

/** The users collection: one place that knows how users are stored. */
export class UserRepository {
  private readonly users: Collection<UserDocument>;
  private readonly ownerDemotion: GuardedDemotion<UserDocument>;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.users = store.collection<UserDocument>(USERS_COLLECTION);
    this.ownerDemotion = new GuardedDemotion({
      collection: this.users,
      clock,
      markField: 'platformOwnerDemoting',
      holds: { platformOwner: true },
      demoted: { platformOwner: false },
      group: {},
      stamped: (modifier) => this.stamped(modifier),
    });
  }

  async ensureIndexes(): Promise<void> {
    await this.users.ensureIndex({ keys: { email: 1 }, unique: true });
  }

  /** Throws DuplicateKeyError when the email is taken. */
  async insert(user: UserRecord): Promise<void> {
    await this.users.insertOne({ ...user });
  }

  async findById(id: string): Promise<StoredUser | null> {
    return this.users.findById(id, WITHOUT_SECRET);
  }

  async require(id: string): Promise<StoredUser> {
    const user = await this.findById(id);
    if (!user) throw identityError('IDENTITY_USER_NOT_FOUND');
    return user;
  }

  /** The reads that include the password hash: sign-in, and a password change (which checks the current one). */
  async findWithSecretByEmail(email: string): Promise<UserRecord | null> {
    return this.users.findOne({ email });
  }

  async findWithSecretById(id: string): Promise<UserRecord | null> {
    return this.users.findById(id);
  }

  /**
   * Replaces the password hash and, in the same write, moves the credential generation on (a
   * sign-in that checked the old password then ends the session it opened); with `replacing`, only
   * while the hash is still that one (a change checked against it). Answers the new generation, or
   * null when the user is gone or its hash is no longer `replacing`.
   */
  async setPasswordHash(id: string, passwordHash: string, options: { replacing?: string } = {}): Promise<number | null> {
    const filter = options.replacing === undefined ? { id } : { id, passwordHash: options.replacing };
    const updated = await this.users.updateOne(filter, this.stamped({ $set: { passwordHash }, $inc: { credentialGeneration: 1 } }));
    return updated && credentialGenerationOf(updated);
  }

  /** Moves the credential generation on without another change (the account is about to go); false when the user is gone. */
  async endCredentials(id: string): Promise<boolean> {
    return (await this.users.updateOne({ id }, this.stamped({ $inc: { credentialGeneration: 1 } }))) !== null;
  }

  /** The user's credential generation as stored now; null when the user is gone. */
  async credentialGeneration(id: string): Promise<number | null> {
    const user = await this.users.findById(id, { projection: { credentialGeneration: 1 } });
    return user && credentialGenerationOf(user);
  }

  /** Marks the address confirmed, if it is still the account's (a mailed link proved it); answers the user after it. */
  async markEmailVerified(id: string, email: string): Promise<StoredUser | null> {
    const updated = await this.users.updateOne({ id, email }, this.stamped({ $set: { emailVerifiedAt: this.clock() } }));
    return updated && withoutSecret(updated);
  }

  /** Keeps a secret shown to the user until a first code confirms it. */
  async setPendingTwoFactor(id: string, pending: PendingTwoFactor): Promise<void> {
    await this.users.updateOne({ id }, this.stamped({ $set: { twoFactorPending: pending } }));
  }

  /** Turns two-step sign-in on with the confirmed secret; false when it is on already (or the user is gone). */
  async enableTwoFactor(id: string, factor: TwoFactor): Promise<boolean> {
    const updated = await this.users.updateOne({ id, twoFactor: { $exists: false } }, this.stamped({ $set: { twoFactor: factor, twoFactorEnabledAt: factor.enabledAt }, $unset: { twoFactorPending: '' } }));
    return updated !== null;
  }

  async disableTwoFactor(id: string): Promise<boolean> {
    return (await this.users.updateOne({ id, twoFactor: { $exists: true } }, this.stamped({ $unset: { twoFactor: '', twoFactorEnabledAt: '', twoFactorPending: '' } }))) !== null;
  }

  async replaceRecoveryCodes(id: string, hashes: string[]): Promise<boolean> {
    return (await this.users.updateOne({ id, twoFactor: { $exists: true } }, this.stamped({ $set: { 'twoFactor.recoveryCodeHashes': hashes } }))) !== null;
  }

  /**
   * Spends a matched code, once: a TOTP step only if it is newer than the last one used, a
   * recovery code only while it is unused. False when a concurrent sign-in spent it first.
   */
  async spendTwoFactorCode(id: string, match: NonNullable<CodeMatch>): Promise<boolean> {
    const spent =
      match.kind === 'totp'
        ? await this.users.updateOne({ id, 'twoFactor.lastCounter': { $lt: match.counter } }, { $set: { 'twoFactor.lastCounter': match.counter } })
        : await this.users.updateOne({ id, 'twoFactor.recoveryCodeHashes': match.hash }, { $pullAll: { 'twoFactor.recoveryCodeHashes': [match.hash] } });
    return spent !== null;
  }

  async count(): Promise<number> {
    return this.users.count();
  }

  async countPlatformOwners(): Promise<number> {
    return this.users.count({ platformOwner: true });
  }

  /**
   * Takes platform ownership from the user, never from the platform's last owner, also when owners
   * are demoted or delete their accounts at once (a GuardedDemotion: the user is marked, still
   * owner, while the other owners without a mark are counted). `changed`: it was owner until now;
   * `busy`: another demotion of it did not finish in time.
   */
  async demotePlatformOwner(id: string): Promise<{ user: StoredUser; changed: boolean } | 'gone' | 'last-owner' | 'busy'> {
    const outcome = await this.ownerDemotion.demote(id);
    if (outcome === 'last') return 'last-owner';
    if (typeof outcome === 'string') return outcome;
    return { user: withoutSecret(outcome.after), changed: outcome.changed };
  }

  /** Gives platform ownership back to a user whose demotion was part of a change refused later, unless it changed meanwhile. */
  async restorePlatformOwner(id: string): Promise<void> {
    await this.ownerDemotion.giveBack(id);
  }

  /** Removes the user's record, and with it every personal field and the password hash; its email is free again. */
  async remove(id: string): Promise<boolean> {
    return (await this.users.deleteMany({ id })) > 0;
  }

  /** One page of every user, oldest first (platform administration). */
  async listAll(page: { skip: number; limit: number }): Promise<{ items: StoredUser[]; total: number }> {
    const [items, total] = await Promise.all([this.users.find({}, { sort: { createdAt: 1, id: 1 }, ...page, ...WITHOUT_SECRET }), this.users.count()]);
    return { items, total };
  }

  /** Users whose email is unconfirmed, by id, `limit` after the id `after` (a pass over all of them, page by page). */
  async unconfirmedAfter(after: string, limit: number): Promise<StoredUser[]> {
    return this.users.find({ emailVerifiedAt: { $exists: false }, id: { $gt: after } }, { sort: { id: 1 }, limit, ...WITHOUT_SECRET });
  }

  async findByEmail(email: string): Promise<StoredUser | null> {
    return this.users.findOne({ email }, WITHOUT_SECRET);
  }

  /** Applies `modifier` with a new revision and updatedAt; answers the user after it, or null when unknown. */
  async update(id: string, modifier: UpdateModifier): Promise<StoredUser | null> {
    const updated = await this.users.updateOne({ id }, this.stamped(modifier));
    return updated && withoutSecret(updated);
  }

  /**
   * Read-modify-write without lost updates: `change` computes the modifier from the user as read,
   * and the write applies only if nobody wrote in between (same revision); otherwise it re-reads
   * and recomputes. Whole-value writes (recentProjects) thus never resurrect what another evicted.
   */
  async updateFromCurrent(id: string, change: (user: StoredUser) => UpdateModifier): Promise<StoredUser> {
    for (;;) {
      const user = await this.require(id);
      const updated = await this.users.updateOne({ id, revision: user.revision }, this.stamped(change(user)));
      if (updated) return withoutSecret(updated);
    }
  }

  private stamped(modifier: UpdateModifier): UpdateModifier {
    return { ...modifier, $set: { ...modifier.$set, updatedAt: this.clock() }, $inc: { ...modifier.$inc, revision: 1 } };
  }
}
