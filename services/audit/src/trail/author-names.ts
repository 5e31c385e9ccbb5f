import { PROJECT_MEMBERS_COLLECTION, type ProjectMember } from '@platform/contracts';
import type { DocumentStore } from '@platform/storage';
import { DEFAULT_PRIVACY, displayNameVisible, privacySchema, type Viewer } from '../domain/name-visibility';
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

  /** The subset of `authorIds` whose display names the reader may see. */
  async visibleTo(reader: TrailReader, authorIds: readonly string[]): Promise<Set<string>> {
    const authors = [...new Set(authorIds)];
    if (authors.length === 0) return new Set();
    // Every author with an account: a deleted one has no record.
    if (reader.platformOwner) return new Set((await this.privacies(authors)).keys());
    const [privacies, sharing] = await Promise.all([this.privacies(authors), this.sharingProjects(reader.userId, authors)]);
    return new Set(
      authors.filter((author) => {
        const viewer: Viewer = author === reader.userId ? 'self' : sharing.has(author) ? 'shares-project' : 'other';
        // An author without a record (a deleted account) shows no name, as a private one.
        return displayNameVisible(privacies.get(author) ?? 'private', viewer);
      }),
    );
  }

  /** Each author's display-name privacy; an unknown or unreadable level counts as `private`. */
  private async privacies(authors: string[]) {
    const users = await this.store.collection(USERS_COLLECTION).find({ id: { $in: authors } }, { projection: { id: 1, profileFields: 1 } });
    return new Map(
      users.map((user) => {
        const field = (user.profileFields as { displayName?: { privacy?: unknown } } | undefined)?.displayName;
        const privacy = field?.privacy === undefined ? DEFAULT_PRIVACY : (privacySchema.safeParse(field.privacy).data ?? 'private');
        return [user.id, privacy];
      }),
    );
  }

  /** The authors who are members of a project the reader is a member of (identity's `shareAProject`). */
  private async sharingProjects(readerId: string, authors: string[]): Promise<Set<string>> {
    const members = this.store.collection<ProjectMember & { [field: string]: unknown }>(PROJECT_MEMBERS_COLLECTION);
    const projectIds = (await members.find({ userId: readerId }, { projection: { projectId: 1 } })).map((member) => member.projectId);
    if (projectIds.length === 0) return new Set();
    const shared = await members.find({ userId: { $in: authors }, projectId: { $in: projectIds } }, { projection: { userId: 1 } });
    return new Set(shared.map((member) => member.userId));
  }
}
