import { SpanKind, trace, type SpanOptions } from '@opentelemetry/api';
import { wrappedAtomically, wrappedCollections, type BoundedFind, type Collection, type DocumentStore, type Filter, type FindOptions, type IndexSpec, type Projection, type StoredDocument, type UpdateModifier } from '@platform/storage';
import { storeOperationDuration } from './metrics';
import { inChildSpan, inRecordedTrace, type TraceContext } from './trace-context';

const tracer = trace.getTracer('store');

/**
 * Times one store operation into the histogram (label: the operation only; collection names hold
 * project ids). Spans are not made here: a store call cannot know its caller's trace (contexts are
 * handed on explicitly), so a write that belongs to a trace is wrapped by its caller in
 * `inStoreWriteSpan`. The caller gets the operation's own promise back: no wrapping async function,
 * one promise fewer per operation.
 */
function measured<R>(operation: string, work: () => Promise<R>): Promise<R> {
  const started = performance.now();
  let result: Promise<R>;
  try {
    result = work();
  } catch (error) {
    // An adapter that throws before its promise exists fails as the async wrapper did: through the promise.
    observeSince(operation, started);
    return Promise.reject(error as Error);
  }
  // Unnamed callbacks: tsx (keepNames) gives a closure held in a named const a defineProperty call each time it is made.
  result.then(
    () => observeSince(operation, started),
    () => observeSince(operation, started),
  );
  return result;
}

function observeSince(operation: string, started: number): void {
  storeOperationDuration.observe([operation], (performance.now() - started) / 1000);
}

/**
 * A write to the store (an atomic section, one insert) as a client span under `parent`, when
 * `parent` is a recorded trace: `store <operation>` with the database and collection attributes.
 * Outside a recorded trace (the outbox sweeper, start-up, a trace sampled out) it only runs the
 * write. Reads get no span: several in every request, the histogram shows their latency.
 */
export function inStoreWriteSpan<R>(parent: TraceContext | undefined, store: { kind: string }, operation: string, collection: string, work: () => Promise<R>): Promise<R> {
  if (!inRecordedTrace(parent)) return work();
  const options: SpanOptions = { kind: SpanKind.CLIENT, attributes: { 'db.system.name': store.kind, 'db.operation.name': operation, 'db.collection.name': collection } };
  return inChildSpan(tracer, `store ${operation}`, options, parent, work);
}

/**
 * A collection with its operations timed. A class rather than an object of closures: atomic
 * sections get a wrapper per collection each (one write request opens two), and under tsx, which
 * keeps names, every named closure made is an Object.defineProperty call.
 */
class InstrumentedCollection<T extends StoredDocument> implements Collection<T> {
  constructor(private readonly inner: Collection<T>) {}

  get name(): string {
    return this.inner.name;
  }

  insertOne(doc: T): Promise<void> {
    return measured('insertOne', () => this.inner.insertOne(doc));
  }

  insertMany(docs: T[]): Promise<void> {
    return measured('insertMany', () => this.inner.insertMany(docs));
  }

  findById(id: string, options?: { projection?: Projection }): Promise<T | null> {
    return measured('findById', () => this.inner.findById(id, options));
  }

  findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    return measured('findOne', () => this.inner.findOne(filter, options));
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return measured('find', () => this.inner.find(filter, options));
  }

  findWithin(filter: Filter, options: FindOptions, maxBytes: number): Promise<BoundedFind<T>> {
    return measured('find', () => this.inner.findWithin(filter, options, maxBytes));
  }

  count(filter?: Filter): Promise<number> {
    return measured('count', () => this.inner.count(filter));
  }

  updateOne(filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }): Promise<T | null> {
    return measured('updateOne', () => this.inner.updateOne(filter, modifier, options));
  }

  updateMany(filter: Filter, modifier: UpdateModifier): Promise<number> {
    return measured('updateMany', () => this.inner.updateMany(filter, modifier));
  }

  deleteMany(filter: Filter): Promise<number> {
    return measured('deleteMany', () => this.inner.deleteMany(filter));
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return measured('ensureIndex', () => this.inner.ensureIndex(spec));
  }
}

/**
 * The store with every collection operation timed (`platform_store_operation_duration_seconds`).
 * Everything else (kind, ping, backup, an adapter's own extras such
 * as the embedded store's stats) is the store's own, so checks like `isEmbeddedStore` still hold.
 */
export function instrumentStore(store: DocumentStore): DocumentStore {
  // Sections' collections are timed too: their writes are most of a write request's.
  const wrap = (collection: Collection<StoredDocument>) => new InstrumentedCollection(collection);
  const collection = wrappedCollections(store, wrap);
  const atomically = wrappedAtomically(store, wrap);
  return new Proxy(store, {
    get(target, property) {
      if (property === 'collection') return collection;
      if (property === 'atomically') return atomically;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
