import { AGENTS_TYPE_ID, typesCollection, type History, type StoredEntity } from '@platform/documents';
import { replayUpdates, type DocumentStore } from '@platform/storage';

/** Identity's users collection (see services/identity/src/users/user-record.ts). */
export const USERS_COLLECTION = 'users';

/** What `entityTypeName` says for the project's own collections. */
export const BUILT_IN_TYPE_NAMES: Readonly<Record<string, string>> = { types: 'Type', applications: 'Application', [AGENTS_TYPE_ID]: 'AI agent' };

function nameOf(type: Record<string, unknown>): string | undefined {
  return typeof type.name === 'string' && type.name.trim() ? type.name.trim() : undefined;
}

/**
 * Display names for items. A type's name is the one it had when the change was made (replayed
 * from the type's history when it was renamed since), so the live consumer and the rebuild agree
 * however late either runs. A user's display name is read from identity's users collection when
 * the item is written; a user without a record shows their id.
 */
export class Names {
  private readonly userNames = new Map<string, Promise<string>>();

  /** With `memoize` (a rebuild: one pass over settled data) each user is read once. */
  constructor(
    private readonly store: DocumentStore,
    private readonly history: History,
    private readonly options: { memoize?: boolean } = {},
  ) {}

  async userDisplayName(userId: string): Promise<string> {
    if (!this.options.memoize) return this.readUserDisplayName(userId);
    let name = this.userNames.get(userId);
    if (!name) this.userNames.set(userId, (name = this.readUserDisplayName(userId)));
    return name;
  }

  private async readUserDisplayName(userId: string): Promise<string> {
    const user = await this.store.collection(USERS_COLLECTION).findById(userId, { projection: { displayName: 1 } });
    const name = user?.displayName;
    return typeof name === 'string' && name.trim() ? name.trim() : userId;
  }

  async typeNameAt(projectId: string, typeId: string, timestamp: number): Promise<string> {
    const builtIn = BUILT_IN_TYPE_NAMES[typeId];
    if (builtIn) return builtIn;
    const collection = typesCollection(projectId);
    // The schema, most of a type's bytes, is not needed for its name (read for every change recorded).
    const type = await this.store.collection<StoredEntity>(collection).findById(typeId, { projection: { schema: 0 } });
    if (!type) return typeId;
    if (type.updatedAt <= timestamp) return nameOf(type) ?? typeId;
    const changes = await this.history.changes(collection, type);
    const until = changes.findIndex((change) => change.timestamp > timestamp);
    const known = until === -1 ? changes : changes.slice(0, until);
    return nameOf(known.length ? replayUpdates(known.map((change) => change.modifier)) : type) ?? typeId;
  }
}
