import { PROJECT_MEMBERS_COLLECTION, TENANT_MEMBERS_COLLECTION } from '@platform/contracts';
import type { DocumentStore } from '@platform/storage';
import { DEFAULT_PRIVACY, displayNameVisible, privacySchema, type Privacy, type Viewer } from '../domain/name-visibility';
import { USERS_COLLECTION } from './names';

/** Who reads the trail: the signed-in user, and whether they are a platform owner (who sees every name of an account that exists). */
export interface TrailReader {
  userId: string;
  platformOwner: boolean;
}

/**
 * Which authors' display names a reader may see, by the authors' privacy now. An item keeps the
 * name its author had when it was written; whether it is shown is decided at every read, so a
 * name made `private` later disappears from every item, as does a deleted account's (for platform
 * owners too, who see every other name; the stored items lose it as well, see
 * consumers/account-deletions.ts). Hidden names are answered as the user id.
 */
export class AuthorNames {
  constructor(private readonly store: DocumentStore) {}

  /**
   * The users among `userIds` whose display names the reader may see, each with the name it has
   * now (items show their authors' names as they were when written, and a member's as it is).
   */
  async visibleTo(reader: TrailReader, userIds: readonly string[]): Promise<Map<string, string>> {
    const authors = [...new Set(userIds)];
    if (authors.length === 0) return new Map();
    // Every author with an account: a deleted one has no record.
    const users = await this.profiles(authors);
    if (reader.platformOwner) return new Map([...users].map(([id, user]) => [id, user.displayName]));
    const sharing = await this.colleagues(reader.userId, authors);
    const visible = new Map<string, string>();
    for (const author of authors) {
      const viewer: Viewer = author === reader.userId ? 'self' : sharing.has(author) ? 'shares-project' : 'other';
      const user = users.get(author);
      // An author without a record (a deleted account) shows no name, as a private one.
      if (user && displayNameVisible(user.privacy, viewer)) visible.set(author, user.displayName);
    }
    return visible;
  }

  /** Each user's display name and its privacy; an unknown or unreadable level counts as `private`. */
  private async profiles(userIds: string[]): Promise<Map<string, { displayName: string; privacy: Privacy }>> {
    const users = await this.store.collection(USERS_COLLECTION).find({ id: { $in: userIds } }, { projection: { id: 1, displayName: 1, profileFields: 1 } });
    return new Map(
      users.map((user) => {
        const field = (user.profileFields as { displayName?: { privacy?: unknown } } | undefined)?.displayName;
        const privacy = field?.privacy === undefined ? DEFAULT_PRIVACY : (privacySchema.safeParse(field.privacy).data ?? 'private');
        const displayName = typeof user.displayName === 'string' && user.displayName.trim() ? user.displayName.trim() : user.id;
        return [user.id, { displayName, privacy }];
      }),
    );
  }

  /**
   * The authors who share a project or a tenant with the reader: identity's colleagues (its
   * `shareAProject` or `shareATenant`, as GET /api/users/{userId} decides), whose names their
   * `members` privacy shows.
   */
  private async colleagues(readerId: string, authors: string[]): Promise<Set<string>> {
    const [projects, tenants] = await Promise.all([
      this.sharingMembers(PROJECT_MEMBERS_COLLECTION, 'projectId', readerId, authors),
      this.sharingMembers(TENANT_MEMBERS_COLLECTION, 'tenantId', readerId, authors),
    ]);
    return new Set([...projects, ...tenants]);
  }

  /** The authors with a membership in `collection` whose `groupField` (project or tenant) the reader also has one in. */
  private async sharingMembers(collection: string, groupField: 'projectId' | 'tenantId', readerId: string, authors: string[]): Promise<string[]> {
    const members = this.store.collection(collection);
    const groups = (await members.find({ userId: readerId }, { projection: { [groupField]: 1 } })).map((member) => member[groupField]);
    if (groups.length === 0) return [];
    return (await members.find({ userId: { $in: authors }, [groupField]: { $in: groups } }, { projection: { userId: 1 } })).map((member) => member.userId as string);
  }
}
