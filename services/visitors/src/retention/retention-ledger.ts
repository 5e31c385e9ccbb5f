import type { EntityScope } from '@platform/documents';
import type { DocumentStore, StoreSection, StoredDocument } from '@platform/storage';

const COLLECTION = 'visitor-retention';

/**
 * One record the visitors service wrote through its own routes. Visitors carry the schedule the
 * server set; events point at their visitor's entry. Nothing but this service writes here.
 */
export interface LedgerEntry extends StoredDocument {
  kind: 'visitor' | 'event';
  projectId: string;
  typeId: string;
  collection: string;
  entityId: string;
  /** Visitors only: when the retention job erases it (Unix ms), and the period the visitor chose. */
  deleteOn?: number;
  deleteOnPreference?: number;
  /** Events only: the id of their visitor's entry. */
  visitor?: string;
}

function entryId(collection: string, entityId: string): string {
  return `${collection}/${entityId}`;
}

/**
 * Which documents the visitors service manages and when each visitor is due: the retention job
 * erases only what is recorded here. The copies of `deleteOn` and `deleteOnPreference` in a
 * visitor document are for reading; a member who can write the document (or bind any type as a
 * visitor type) cannot schedule an erasure, since this collection is outside every document route.
 */
export class RetentionLedger {
  private indexed: Promise<void> | undefined;

  constructor(private readonly store: DocumentStore) {}

  /** The ledger's collection; inside an atomic section, `section` is the section's store. */
  private async entries(section: StoreSection = this.store) {
    const collection = this.store.collection<LedgerEntry>(COLLECTION);
    this.indexed ??= Promise.all([collection.ensureIndex({ keys: { deleteOn: 1 } }), collection.ensureIndex({ keys: { visitor: 1 } })]).then(() => undefined);
    await this.indexed;
    return section.collection<LedgerEntry>(COLLECTION);
  }

  /** Records a visitor the service is about to create, with its erasure date. */
  async schedule(scope: EntityScope, visitorId: string, retention: { deleteOn: number; deleteOnPreference: number }, section?: StoreSection): Promise<void> {
    await (await this.entries(section)).insertOne({ id: entryId(scope.collection, visitorId), kind: 'visitor', projectId: scope.projectId, typeId: scope.typeId, collection: scope.collection, entityId: visitorId, ...retention });
  }

  /**
   * Moves a recorded visitor's erasure date (a period change, a visit); answers false for a record
   * the service did not create, which gets no schedule.
   */
  async reschedule(scope: EntityScope, visitorId: string, retention: { deleteOn: number; deleteOnPreference: number }, section?: StoreSection): Promise<boolean> {
    return (await (await this.entries(section)).updateOne({ id: entryId(scope.collection, visitorId), kind: 'visitor' }, { $set: retention })) !== null;
  }

  /** The deletion period the server recorded for a visitor, or undefined for one it does not manage. */
  async preferenceOf(scope: EntityScope, visitorId: string): Promise<number | undefined> {
    const entry = await (await this.entries()).findById(entryId(scope.collection, visitorId));
    return entry?.deleteOnPreference;
  }

  /** Records an event the service created for a visitor, so the visitor's erasure takes it along. */
  async recordEvent(scope: EntityScope, eventId: string, visitor: EntityScope, visitorId: string, section?: StoreSection): Promise<void> {
    await (await this.entries(section)).insertOne({
      id: entryId(scope.collection, eventId),
      kind: 'event',
      projectId: scope.projectId,
      typeId: scope.typeId,
      collection: scope.collection,
      entityId: eventId,
      visitor: entryId(visitor.collection, visitorId),
    });
  }

  /** Visitors due at `now`, oldest first, skipping the entries in `except`. */
  async due(now: number, limit: number, except: string[]): Promise<LedgerEntry[]> {
    return (await this.entries()).find({ kind: 'visitor', deleteOn: { $lte: now }, id: { $nin: except } }, { sort: { deleteOn: 1 }, limit });
  }

  async eventsOf(visitor: LedgerEntry): Promise<LedgerEntry[]> {
    return (await this.entries()).find({ visitor: visitor.id });
  }

  /** The `collection/visitorId` keys of a project's visitors (their secrets' keys too). */
  async visitorKeysOf(projectId: string): Promise<string[]> {
    return (await (await this.entries()).find({ projectId, kind: 'visitor' }, { projection: { id: 1 } })).map((visitor) => visitor.id);
  }

  /** Drops every entry of a purged project (its documents are erased with it); answers how many. */
  async eraseProject(projectId: string): Promise<number> {
    return (await this.entries()).deleteMany({ projectId });
  }

  /** Drops an entry once its document is erased. */
  async forget(entry: LedgerEntry): Promise<void> {
    await (await this.entries()).deleteMany({ id: entry.id });
  }
}
