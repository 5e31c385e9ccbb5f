import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Collection, DocumentStore, StoredDocument } from '@platform/storage';
import { storeOperationDuration } from './metrics';

const tracer = trace.getTracer('store');

/**
 * Times one store operation into the histogram (label: the operation only; collection names hold
 * project ids). Inside a trace this process records it is also a client span; outside one (the
 * outbox sweeper's timer, start-up, a trace sampled out) no span is started, so background polling
 * does not fill the trace backend. The span is never made active: nothing below a store call
 * starts spans, so switching the async context for every operation would buy nothing.
 */
async function measured<R>(kind: string, collection: string, operation: string, work: () => Promise<R>): Promise<R> {
  const stopTimer = storeOperationDuration.startTimer({ operation });
  const span = trace.getActiveSpan()?.isRecording()
    ? tracer.startSpan(`store ${operation}`, { kind: SpanKind.CLIENT, attributes: { 'db.system.name': kind, 'db.operation.name': operation, 'db.collection.name': collection } })
    : undefined;
  try {
    return await work();
  } catch (error) {
    span?.recordException(error as Error);
    span?.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    stopTimer();
    span?.end();
  }
}

function instrumentCollection<T extends StoredDocument>(kind: string, collection: Collection<T>): Collection<T> {
  const run = <R>(operation: string, work: () => Promise<R>) => measured(kind, collection.name, operation, work);
  return {
    name: collection.name,
    insertOne: (doc) => run('insertOne', () => collection.insertOne(doc)),
    insertMany: (docs) => run('insertMany', () => collection.insertMany(docs)),
    findById: (id, options) => run('findById', () => collection.findById(id, options)),
    findOne: (filter, options) => run('findOne', () => collection.findOne(filter, options)),
    find: (filter, options) => run('find', () => collection.find(filter, options)),
    count: (filter) => run('count', () => collection.count(filter)),
    updateOne: (filter, modifier, options) => run('updateOne', () => collection.updateOne(filter, modifier, options)),
    updateMany: (filter, modifier) => run('updateMany', () => collection.updateMany(filter, modifier)),
    deleteMany: (filter) => run('deleteMany', () => collection.deleteMany(filter)),
    ensureIndex: (spec) => run('ensureIndex', () => collection.ensureIndex(spec)),
  };
}

/**
 * The store with every collection operation timed (`platform_store_operation_duration_seconds`)
 * and, inside a trace, a span. Everything else (kind, ping, backup, an adapter's own extras such
 * as the embedded store's stats) is the store's own, so checks like `isEmbeddedStore` still hold.
 */
export function instrumentStore(store: DocumentStore): DocumentStore {
  const collection = <T extends StoredDocument>(name: string): Collection<T> => instrumentCollection(store.kind, store.collection<T>(name));
  return new Proxy(store, {
    get(target, property) {
      if (property === 'collection') return collection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
