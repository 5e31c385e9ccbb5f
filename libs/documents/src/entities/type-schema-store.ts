import { wrappedAtomically, wrappedCollections, type BoundedFind, type Collection, type DocumentStore, type FindOptions, type Filter, type IndexSpec, type Projection, type StoredDocument, type UpdateModifier } from '@platform/storage';
import { isTypesCollection } from '../domain/collections';
import { loadedTypeFields, storedTypeFields, storedTypeModifier } from '../domain/type-schema-storage';

function loaded<T extends StoredDocument>(document: T | null): T | null {
  return document && loadedTypeFields(document);
}

/**
 * A types collection that stores each type's JSON Schema with its `$` keys escaped and answers it
 * as it was sent (see type-schema-storage). Filters are passed on unchanged: nothing queries a
 * schema's keys.
 */
class TypeSchemaCollection<T extends StoredDocument> implements Collection<T> {
  constructor(private readonly inner: Collection<T>) {}

  get name(): string {
    return this.inner.name;
  }

  insertOne(doc: T): Promise<void> {
    return this.inner.insertOne(storedTypeFields(doc));
  }

  insertMany(docs: T[]): Promise<void> {
    return this.inner.insertMany(docs.map((doc) => storedTypeFields(doc)));
  }

  async findById(id: string, options?: { projection?: Projection }): Promise<T | null> {
    return loaded(await this.inner.findById(id, options));
  }

  async findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    return loaded(await this.inner.findOne(filter, options));
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return (await this.inner.find(filter, options)).map((document) => loadedTypeFields(document));
  }

  async findWithin(filter: Filter, options: FindOptions, maxBytes: number): Promise<BoundedFind<T>> {
    const found = await this.inner.findWithin(filter, options, maxBytes);
    return { ...found, documents: found.documents.map((document) => loadedTypeFields(document)) };
  }

  count(filter?: Filter): Promise<number> {
    return this.inner.count(filter);
  }

  async updateOne(filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }): Promise<T | null> {
    return loaded(await this.inner.updateOne(filter, storedTypeModifier(modifier), options));
  }

  updateMany(filter: Filter, modifier: UpdateModifier): Promise<number> {
    return this.inner.updateMany(filter, storedTypeModifier(modifier));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.inner.deleteMany(filter);
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.inner.ensureIndex(spec);
  }
}

/**
 * The store as the data service uses it: types collections go through TypeSchemaCollection, so
 * every reader and writer of types (entity routes, the type directory, migrations) sends and sees
 * plain JSON Schema while the store never holds a `$` key.
 */
export function withTypeSchemaEncoding(store: DocumentStore): DocumentStore {
  const wrap = (collection: Collection<StoredDocument>) => (isTypesCollection(collection.name) ? new TypeSchemaCollection(collection) : collection);
  return {
    get kind() {
      return store.kind;
    },
    collection: wrappedCollections(store, wrap),
    atomically: wrappedAtomically(store, wrap),
    dropCollection: (name) => store.dropCollection(name),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
