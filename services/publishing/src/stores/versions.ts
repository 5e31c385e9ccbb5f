import { applicationsCollection } from '@platform/documents';
import { dropCounted, DuplicateKeyError, type Collection, type DocumentStore, type StoreSection } from '@platform/storage';
import type { StoredVersion } from '../domain/versions';

/**
 * Versions live beside the applications collection: `tenant-{projectId}-applications.versions`.
 * The dot keeps the name out of the type-id namespace (ids are `[A-Za-z0-9_-]`), so no type can
 * ever be called the same.
 */
export function versionsCollection(projectId: string): string {
  return `${applicationsCollection(projectId)}.versions`;
}

/**
 * A version row older than this whose number the application never took was left by a publish
 * that crashed between inserting it and patching the application; the next publish of that number
 * may replace it. A live publish takes milliseconds.
 */
export const ABANDONED_AFTER_MS = 60_000;

/** How often `settle` writes its snapshot at most: each retry means a claim inserted the row meanwhile. */
const SETTLE_WRITES = 3;

/**
 * Storage of ApplicationVersions. A row is written by the publish that claims its number; until it
 * is settled, that publish may remove it (its patch lost) and a later one may replace it (it was
 * abandoned). Settled rows only go, with all of a project's, when the project is purged.
 */
export class VersionStore {
  private readonly indexed = new Set<string>();

  constructor(private readonly store: DocumentStore) {}

  /** The project's versions; inside an atomic section, `section` is the section's store. */
  private async versions(projectId: string, section: StoreSection = this.store): Promise<Collection<StoredVersion>> {
    const collection = section.collection<StoredVersion>(versionsCollection(projectId));
    if (!this.indexed.has(collection.name)) {
      await collection.ensureIndex({ keys: { applicationId: 1, versionNumber: -1 } });
      this.indexed.add(collection.name);
    }
    return collection;
  }

  /** Erases every version of a purged project, dropping its collection with its index; answers how many there were. */
  async eraseProject(projectId: string): Promise<number> {
    const name = versionsCollection(projectId);
    const held = await dropCounted(this.store, name);
    this.indexed.delete(name);
    return held;
  }

  /** Inserts the version; false when its number is already taken (its id is `{appId}:{number}`). */
  async insert(projectId: string, version: StoredVersion, section?: StoreSection): Promise<boolean> {
    try {
      await (await this.versions(projectId, section)).insertOne(version);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /**
   * Inserts the version, or replaces a row of the same number that a crashed publish abandoned
   * (older than ABANDONED_AFTER_MS, still not taken by the application, not settled). False when a
   * live publish holds the number. Its writes go through `section` (an atomic section's store) when given.
   */
  async claim(projectId: string, version: StoredVersion, stillUntaken: () => Promise<boolean>, section?: StoreSection): Promise<boolean> {
    if (await this.insert(projectId, version, section)) return true;
    const existing = await this.find(projectId, version.id);
    if (!existing || existing._settled || existing.createdAt > version.createdAt - ABANDONED_AFTER_MS || !(await stillUntaken())) return false;
    // One write conditional on the row read: it is never missing meanwhile, and if the application
    // took the number since stillUntaken and its publish settled the row, the row stays.
    const { id, ...fields } = version;
    const replaced = await (await this.versions(projectId, section)).updateOne({ id, _attempt: existing._attempt, _settled: { $exists: false } }, { $set: fields });
    return replaced !== null;
  }

  /** Removes a row only if it is still the one this attempt inserted. */
  async withdraw(projectId: string, version: StoredVersion, section?: StoreSection): Promise<void> {
    await (await this.versions(projectId, section)).deleteMany({ id: version.id, _attempt: version._attempt });
  }

  /**
   * Called once the application took the version's number (this publish's patch landed): makes the
   * row this publish's snapshot, settled. On MongoDB the claim went before the patch, not with it,
   * so meanwhile a publish that judged the row abandoned may have replaced it (and removed its own
   * after losing): the snapshot is written back over whatever holds the id, since the application
   * names this one (its publishedAt is the snapshot's createdAt).
   */
  async settle(projectId: string, version: StoredVersion): Promise<void> {
    const versions = await this.versions(projectId);
    // The common case: the row is still this publish's own.
    if (await versions.updateOne({ id: version.id, _attempt: version._attempt }, { $set: { _settled: true } })) return;
    const { id, ...fields } = version;
    for (let write = 1; ; write += 1) {
      try {
        await versions.updateOne({ id }, { $set: { ...fields, _settled: true } }, { upsert: true });
        return;
      } catch (error) {
        // A claim inserted the row between the upsert's miss and its insert: the next write updates it.
        if (!(error instanceof DuplicateKeyError) || write === SETTLE_WRITES) throw error;
      }
    }
  }

  async find(projectId: string, id: string): Promise<StoredVersion | null> {
    return (await this.versions(projectId)).findById(id);
  }

  /**
   * The application's versions up to `upTo` (its publishedVersionNumber: every number up to it was
   * committed, anything above is an unfinished publish), newest first, without the heavy fields.
   */
  async committed(projectId: string, applicationId: string, options: { upTo: number; before?: number; limit: number }): Promise<StoredVersion[]> {
    const ceiling = options.before === undefined ? { $lte: options.upTo } : { $lte: options.upTo, $lt: options.before };
    return (await this.versions(projectId)).find(
      { applicationId, versionNumber: ceiling },
      { sort: { versionNumber: -1 }, limit: options.limit, projection: { routes: 0, serverConfiguration: 0 } },
    );
  }
}
