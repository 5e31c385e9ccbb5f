import { ClusterSchedule, erasePurgedProjects, type ServiceDefinition } from '@platform/kit';
import { loadVisitorsConfig, type VisitorsConfig } from './config';
import { eraseProjectVisitors } from './retention/project-erasure';
import { RETENTION_SCHEDULE } from './retention/retention-schedule';
import { registerKioskRoutes } from './routes/kiosk';
import { registerVisitorRoutes } from './routes/visitors';
import { visitorsDeps } from './visitors-deps';

/**
 * The visitors service: visitor check-in routes and the nightly retention job. Configuration is
 * read from the environment when the service starts unless given (tests give it).
 */
export function createVisitorsService(given?: VisitorsConfig): ServiceDefinition {
  let config: VisitorsConfig | undefined = given;
  const configuration = () => (config ??= loadVisitorsConfig());
  return {
    name: 'visitors',
    routes: async (app, context) => {
      await registerVisitorRoutes(app, visitorsDeps(context, configuration()));
      await registerKioskRoutes(app, visitorsDeps(context, configuration()));
    },
    start: async (context) => {
      const deps = visitorsDeps(context, configuration());
      const { retention } = deps;
      const schedule = new ClusterSchedule(retention, context.kv, context.clock, context.logger, {
        ...RETENTION_SCHEDULE,
        cron: configuration().retentionCron,
        ...(configuration().retentionTimezone ? { timezone: configuration().retentionTimezone } : {}),
      });
      schedule.start(configuration().retentionCheckMs);
      context.logger.info({ nextRunAt: new Date(schedule.nextRunAt).toISOString() }, 'visitor retention scheduled');
      const purges = await erasePurgedProjects(context.bus, 'visitors', (projectId) => eraseProjectVisitors(deps, projectId), context.logger);
      return async () => {
        await purges.stop();
        await schedule.stop();
      };
    },
  };
}

export const visitorsService: ServiceDefinition = createVisitorsService();
