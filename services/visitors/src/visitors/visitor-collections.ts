import type { EntityScope } from '@platform/data';
import type { DocumentStore, StoredDocument } from '@platform/storage';

const REGISTRY = 'visitor-collections';

export interface VisitorCollectionRecord extends StoredDocument {
  projectId: string;
  typeId: string;
  /** Event collections that have held events of this collection's visitors. */
  eventScopes?: Array<{ typeId: string; collection: string }>;
}

/**
 * Which collections hold visitors (and their events), so the retention job visits exactly those
 * instead of every collection of every project. Recorded once per process and collection.
 */
export class VisitorCollections {
  private readonly known = new Set<string>();

  constructor(private readonly store: DocumentStore) {}

  async registerVisitors(scope: EntityScope): Promise<void> {
    if (this.known.has(scope.collection)) return;
    await this.store.collection<VisitorCollectionRecord>(REGISTRY).updateOne({ id: scope.collection }, { $set: { projectId: scope.projectId, typeId: scope.typeId } }, { upsert: true });
    await this.store.collection(scope.collection).ensureIndex({ keys: { deleteOn: 1 } });
    this.known.add(scope.collection);
  }

  async registerEvents(visitors: EntityScope, events: EntityScope): Promise<void> {
    const key = `${visitors.collection} ${events.collection}`;
    if (this.known.has(key)) return;
    await this.registerVisitors(visitors);
    await this.store.collection<VisitorCollectionRecord>(REGISTRY).updateOne({ id: visitors.collection }, { $addToSet: { eventScopes: { typeId: events.typeId, collection: events.collection } } });
    await this.store.collection(events.collection).ensureIndex({ keys: { visitorId: 1 } });
    this.known.add(key);
  }

  async all(): Promise<VisitorCollectionRecord[]> {
    return this.store.collection<VisitorCollectionRecord>(REGISTRY).find({}, { sort: { id: 1 } });
  }
}
