import type { EventBus } from '@platform/bus';
import type { Logger, ProjectAccess, ServiceContext } from '@platform/kit';
import type { DocumentStore } from '@platform/storage';
import { loadDataLimits, loadHistoryCacheChanges, type DataLimits } from './config';
import { EntityReader } from './entities/entity-reader';
import { EntityWriter } from './entities/entity-writer';
import { History } from './entities/history';
import { HistoryPrefixes } from './entities/history-prefixes';
import { ConsumedPulls } from './entities/consumed-pulls';
import { OutboxDrainer } from './entities/outbox';
import { PullWatermarks } from './entities/pull-watermarks';
import { TypeDirectory } from './entities/type-directory';
import { withTypeSchemaEncoding } from './entities/type-schema-store';
import { UpdatedAtClock } from './entities/updated-at-clock';

/** What every user of the document domain shares (the data routes, and services that write documents): one instance of each per context. */
export interface DataDeps {
  store: DocumentStore;
  bus: EventBus;
  logger: Logger;
  clock: () => number;
  projects: ProjectAccess;
  types: TypeDirectory;
  reader: EntityReader;
  writer: EntityWriter;
  history: History;
  drainer: OutboxDrainer;
  /** Document size, array length, validation time and sample-data bounds (from the environment). */
  limits: DataLimits;
}

/**
 * Pull settle margin with a shared MongoDB (several data replicas, see UpdatedAtClock); the
 * embedded store belongs to one process and needs none.
 */
const SHARED_STORE_SETTLE_MS = 1_000;

/** One set of collaborators per context, shared by the routes and the outbox sweeper of this process. */
const depsByContext = new WeakMap<ServiceContext, DataDeps>();

/**
 * The data service's collaborators for a context. Other services that write entities (publishing
 * patches applications, the actions executor updates documents) use these same instances, so
 * every write takes the same guarded update, history, outbox and event path.
 */
export function dataDeps(context: ServiceContext): DataDeps {
  const existing = depsByContext.get(context);
  if (existing) return existing;
  const { bus, logger, clock } = context;
  // Type schemas hold JSON Schema's `$` keywords, which the store takes only escaped.
  const store = withTypeSchemaEncoding(context.store);
  const shared = store.kind === 'mongodb';
  const timestamps = new UpdatedAtClock(clock, shared ? SHARED_STORE_SETTLE_MS : 0);
  const watermarks = shared ? new PullWatermarks(store) : undefined;
  const history = new History(store, new HistoryPrefixes(loadHistoryCacheChanges()));
  // The embedded store (the all-in-one) keeps a change in its outbox until its event's consumers
  // have it, when the bus can tell (in process): that bus dies with the process.
  const drainer = new OutboxDrainer(store, bus, history, clock, logger, store.kind === 'embedded' ? new ConsumedPulls(store, logger) : undefined);
  const deps: DataDeps = {
    store,
    bus,
    logger,
    clock,
    projects: context.projectAccess,
    types: new TypeDirectory(store),
    reader: new EntityReader(store, history, timestamps, watermarks),
    writer: new EntityWriter(store, history, drainer, timestamps, watermarks),
    history,
    drainer,
    limits: loadDataLimits(),
  };
  depsByContext.set(context, deps);
  return deps;
}
