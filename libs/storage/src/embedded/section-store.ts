import type { BoundedFind, Collection, Filter, FindOptions, IndexSpec, Projection, StoreSection, StoredDocument, UpdateModifier } from '../port';
import type { LogSection, StoreLog } from './store-log';

/**
 * A collection as one atomic section writes it: reads are the collection's own, each write runs
 * `within` the section, so the log keeps its line back until the section ends. That holds because
 * an embedded collection hands a write's change to the log before the call returns.
 */
class SectionCollection<T extends StoredDocument> implements Collection<T> {
  constructor(
    private readonly inner: Collection<T>,
    private readonly log: StoreLog,
    private readonly section: LogSection,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  insertOne(doc: T): Promise<void> {
    return this.log.within(this.section, () => this.inner.insertOne(doc));
  }

  insertMany(docs: T[]): Promise<void> {
    return this.log.within(this.section, () => this.inner.insertMany(docs));
  }

  findById(id: string, options?: { projection?: Projection }): Promise<T | null> {
    return this.inner.findById(id, options);
  }

  findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    return this.inner.findOne(filter, options);
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.inner.find(filter, options);
  }

  findWithin(filter: Filter, options: FindOptions, maxBytes: number): Promise<BoundedFind<T>> {
    return this.inner.findWithin(filter, options, maxBytes);
  }

  count(filter?: Filter): Promise<number> {
    return this.inner.count(filter);
  }

  updateOne(filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }): Promise<T | null> {
    return this.log.within(this.section, () => this.inner.updateOne(filter, modifier, options));
  }

  updateMany(filter: Filter, modifier: UpdateModifier): Promise<number> {
    return this.log.within(this.section, () => this.inner.updateMany(filter, modifier));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.log.within(this.section, () => this.inner.deleteMany(filter));
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.log.within(this.section, () => this.inner.ensureIndex(spec));
  }
}

/** The embedded store as `section` sees it: `collection` answers the store's collections bound to the section. */
export function sectionStore(log: StoreLog, section: LogSection, collection: (name: string) => Collection<StoredDocument>): StoreSection {
  const bound = new Map<string, Collection<StoredDocument>>();
  const store: StoreSection = {
    kind: 'embedded',
    collection<T extends StoredDocument>(name: string): Collection<T> {
      let found = bound.get(name);
      if (!found) bound.set(name, (found = new SectionCollection(collection(name), log, section)));
      return found as unknown as Collection<T>;
    },
    // A nested section joins this one.
    atomically: (work) => work(store),
  };
  return store;
}
