import { ClusterSchedule, erasePurgedProjects, type ServiceContext, type ServiceDefinition } from '@platform/kit';
import { createActionsDeps, type ActionsDeps } from './actions-deps';
import { loadActionsConfig, type ActionsConfig } from './config';
import { startDocumentEventConsumer } from './consumers/document-events';
import { migratePlainPermissionNames } from './executor/permission-migration';
import { RUN_RETENTION_SCHEDULE, RunRetentionJob } from './executor/run-retention';
import { LegacyWriteDepths, pruneLegacyWriteCauses } from './executor/write-causes';
import { registerActionRoutes } from './routes/actions';
import { registerBlockRoutes } from './routes/blocks';
import { registerRunRoutes } from './routes/runs';


/**
 * The actions service: actions CRUD with graph validation, the block registry, and the executor
 * that runs actions on document events. `overrides` replace settings read from the environment
 * (tests allow loopback webhooks this way).
 */
export function createActionsService(overrides: Partial<ActionsConfig> = {}): ServiceDefinition {
  const depsByContext = new WeakMap<ServiceContext, ActionsDeps>();
  const depsFor = (context: ServiceContext): ActionsDeps => {
    let deps = depsByContext.get(context);
    if (!deps) {
      deps = createActionsDeps(context, { ...loadActionsConfig(), ...overrides });
      depsByContext.set(context, deps);
    }
    return deps;
  };

  return {
    name: 'actions',
    routes: async (app, context) => {
      const deps = depsFor(context);
      registerActionRoutes(app, deps);
      registerRunRoutes(app, deps);
      registerBlockRoutes(app);
    },
    start: async (context) => {
      const deps = depsFor(context);
      await Promise.all([deps.actions.ensureIndexes(), deps.runs.ensureIndexes(), deps.actionChanges.ensureIndexes()]);
      // Action changes an earlier run made but could not publish (the bus down, a stop between the two).
      deps.actionChanges.start();
      await migratePlainPermissionNames({ actions: deps.actions, store: context.store, clock: deps.clock }).catch((error: unknown) => context.logger.warn({ err: error }, 'scoping plain permission names of actions failed'));
      await pruneLegacyWriteCauses(context.store, deps.clock).catch((error: unknown) => context.logger.warn({ err: error }, 'old write causes could not be pruned'));
      const stop = await startDocumentEventConsumer(context.bus, deps.executor, {
        concurrency: deps.config.executorConcurrency,
        perProject: deps.config.projectConcurrency,
        ackWaitMs: deps.config.executorAckWaitMs,
        logger: context.logger,
        legacyDepths: await LegacyWriteDepths.open(context.store),
      });
      const purges = await erasePurgedProjects(context.bus, 'actions', async (projectId) => ({ runs: await deps.runs.eraseProject(projectId), actions: await deps.actions.eraseProject(projectId), waitingEvents: await deps.actionChanges.eraseProject(projectId) }), context.logger);
      const retention = new RunRetentionJob({ runs: deps.runs, clock: deps.clock, logger: context.logger, retentionMs: deps.config.runRetentionMs, leaseMs: deps.config.runLeaseMs });
      const retentionSchedule = new ClusterSchedule(retention, context.kv, deps.clock, context.logger, RUN_RETENTION_SCHEDULE);
      retentionSchedule.start(deps.config.runRetentionCheckMs);
      return async () => {
        retentionSchedule.stop();
        deps.actionChanges.stop();
        await purges.stop();
        await stop();
        await deps.executor.manualRunsSettled();
        await deps.http.close();
      };
    },
  };
}

export const actionsService: ServiceDefinition = createActionsService();
