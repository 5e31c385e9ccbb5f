import { erasePurgedProjects, type ServiceDefinition } from '@platform/kit';
import { dataDeps, applicationsKind, documentsKind, typesKind } from '@platform/documents';
import { registerAiRoutes } from './ai/register';
import { migratePlainPermissionNames } from './entities/permission-migration';
import { eraseProjectDocuments } from './entities/project-erasure';
import { registerBatchRlsRoute } from './routes/batch-rls';
import { registerBulkRoute } from './routes/bulk';
import { registerReadableRoute } from './routes/readable';
import { registerEntityRoutes } from './routes/entity-routes';
import { registerSchemaRoutes } from './routes/schemas';
import { registerTypeDeclarationsRoute } from './routes/type-declarations';
import { registerTypeRestoreRoute } from './routes/type-restore';

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
    await registerReadableRoute(app, deps);
    await registerBulkRoute(app, deps);
    await registerTypeRestoreRoute(app, deps);
    await registerTypeDeclarationsRoute(app, deps);
    await registerAiRoutes(app, deps, context.kv);
  },
  start: async (context) => {
    const deps = dataDeps(context);
    const { drainer } = deps;
    // Events that could not be published (bus down, crash between write and publish) go out now.
    await drainer.sweep(0).catch((error: unknown) => context.logger.warn({ err: error }, 'initial outbox sweep failed'));
    // Not marked done when it fails: the next start tries again.
    await migratePlainPermissionNames(deps).catch((error: unknown) => context.logger.warn({ err: error }, 'scoping plain permission names failed'));
    drainer.startSweeping();
    const purges = await erasePurgedProjects(context.bus, 'data', (projectId) => eraseProjectDocuments(deps, projectId), context.logger);
    return async () => {
      await purges.stop();
      drainer.stopSweeping();
      await drainer.settled();
    };
  },
};
