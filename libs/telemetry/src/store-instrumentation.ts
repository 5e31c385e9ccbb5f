import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { wrappedAtomically, wrappedCollections, type Collection, type DocumentStore, type Filter, type FindOptions, type IndexSpec, type Projection, type StoredDocument, type UpdateModifier } from '@platform/storage';
import { storeOperationDuration } from './metrics';

const tracer = trace.getTracer('store');

/**
 * Times one store operation into the histogram (label: the operation only; collection names hold
 * project ids). A write inside a trace this process records is also a client span; reads, several
 * in every request, are timed only, which keeps tracing's cost per request down (the histogram
 * still shows read latency by operation). Outside a recorded trace (the outbox sweeper's
 * timer, start-up, a trace sampled out) no span is started, so background work does not fill the
 * trace backend. The span is never made active: nothing below a store call starts spans, so
 * switching the async context for every operation would buy nothing. Untraced, the caller gets the
 * operation's own promise back: no wrapping async function, one promise fewer per operation.
 */
function measured<R>(kind: string, collection: string, operation: string, traced: boolean, work: () => Promise<R>): Promise<R> {
  const started = performance.now();
  if (traced && trace.getActiveSpan()?.isRecording()) return measuredInSpan(kind, collection, operation, started, work);
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

async function measuredInSpan<R>(kind: string, collection: string, operation: string, started: number, work: () => Promise<R>): Promise<R> {
  const span = tracer.startSpan(`store ${operation}`, { kind: SpanKind.CLIENT, attributes: { 'db.system.name': kind, 'db.operation.name': operation, 'db.collection.name': collection } });
  try {
    return await work();
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    observeSince(operation, started);
    span.end();
  }
}

/**
 * A collection with its operations timed. A class rather than an object of closures: atomic
 * sections get a wrapper per collection each (one write request opens two), and under tsx, which
 * keeps names, every named closure made is an Object.defineProperty call.
 */
class InstrumentedCollection<T extends StoredDocument> implements Collection<T> {
  constructor(
    private readonly kind: string,
    private readonly inner: Collection<T>,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  insertOne(doc: T): Promise<void> {
    return measured(this.kind, this.inner.name, 'insertOne', true, () => this.inner.insertOne(doc));
  }

  insertMany(docs: T[]): Promise<void> {
    return measured(this.kind, this.inner.name, 'insertMany', true, () => this.inner.insertMany(docs));
  }

  findById(id: string, options?: { projection?: Projection }): Promise<T | null> {
    return measured(this.kind, this.inner.name, 'findById', false, () => this.inner.findById(id, options));
  }

  findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    return measured(this.kind, this.inner.name, 'findOne', false, () => this.inner.findOne(filter, options));
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return measured(this.kind, this.inner.name, 'find', false, () => this.inner.find(filter, options));
  }

  count(filter?: Filter): Promise<number> {
    return measured(this.kind, this.inner.name, 'count', false, () => this.inner.count(filter));
  }

  updateOne(filter: Filter, modifier: UpdateModifier, options?: { upsert?: boolean }): Promise<T | null> {
    return measured(this.kind, this.inner.name, 'updateOne', true, () => this.inner.updateOne(filter, modifier, options));
  }

  updateMany(filter: Filter, modifier: UpdateModifier): Promise<number> {
    return measured(this.kind, this.inner.name, 'updateMany', true, () => this.inner.updateMany(filter, modifier));
  }

  deleteMany(filter: Filter): Promise<number> {
    return measured(this.kind, this.inner.name, 'deleteMany', true, () => this.inner.deleteMany(filter));
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return measured(this.kind, this.inner.name, 'ensureIndex', true, () => this.inner.ensureIndex(spec));
  }
}

/**
 * The store with every collection operation timed (`platform_store_operation_duration_seconds`)
 * and, inside a recorded trace, each write a span. Everything else (kind, ping, backup, an adapter's own extras such
 * as the embedded store's stats) is the store's own, so checks like `isEmbeddedStore` still hold.
 */
export function instrumentStore(store: DocumentStore): DocumentStore {
  // Sections' collections are timed too: their writes are most of a write request's.
  const wrap = (collection: Collection<StoredDocument>) => new InstrumentedCollection(store.kind, collection);
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
