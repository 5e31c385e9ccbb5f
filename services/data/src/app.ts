import { ProjectAccess, type ServiceContext, type ServiceDefinition } from '@platform/kit';
import { EntityReader } from './entities/entity-reader';
import { EntityWriter } from './entities/entity-writer';
import { History } from './entities/history';
import { OutboxDrainer } from './entities/outbox';
import { TypeDirectory } from './entities/type-directory';
import { UpdatedAtClock } from './entities/updated-at-clock';
import { registerBatchRlsRoute } from './routes/batch-rls';
import type { DataDeps } from './routes/context';
import { applicationsKind, documentsKind, typesKind } from './routes/entity-kinds';
import { registerEntityRoutes } from './routes/entity-routes';
import { registerSchemaRoutes } from './routes/schemas';

/**
 * Pull settle margin with a shared MongoDB (several data replicas, see UpdatedAtClock); the
 * embedded store belongs to one process and needs none.
 */
const SHARED_STORE_SETTLE_MS = 1_000;

/** One set of collaborators per context, shared by the routes and the outbox sweeper of this process. */
const depsByContext = new WeakMap<ServiceContext, DataDeps>();

function dataDeps(context: ServiceContext): DataDeps {
  const existing = depsByContext.get(context);
  if (existing) return existing;
  const { store, bus, logger, clock } = context;
  const timestamps = new UpdatedAtClock(clock, store.kind === 'mongodb' ? SHARED_STORE_SETTLE_MS : 0);
  const history = new History(store);
  const drainer = new OutboxDrainer(store, bus, history, clock, logger);
  const deps: DataDeps = {
    store,
    bus,
    logger,
    clock,
    projects: new ProjectAccess(store, clock),
    types: new TypeDirectory(store),
    reader: new EntityReader(store, history, timestamps),
    writer: new EntityWriter(store, history, drainer, timestamps),
    history,
    drainer,
  };
  depsByContext.set(context, deps);
  return deps;
}

/** The data service: types, documents and applications with history, pull, RLS and batch RLS. */
export const dataService: ServiceDefinition = {
  name: 'data',
  routes: async (app, context) => {
    const deps = dataDeps(context);
    registerEntityRoutes(app, deps, typesKind);
    registerEntityRoutes(app, deps, documentsKind);
    registerEntityRoutes(app, deps, applicationsKind);
    await registerSchemaRoutes(app, deps);
    await registerBatchRlsRoute(app, deps);
  },
  start: async (context) => {
    const { drainer } = dataDeps(context);
    // Events that could not be published (bus down, crash between write and publish) go out now.
    await drainer.sweep(0).catch((error: unknown) => context.logger.warn({ err: error }, 'initial outbox sweep failed'));
    drainer.startSweeping();
    return async () => drainer.stopSweeping();
  },
};
