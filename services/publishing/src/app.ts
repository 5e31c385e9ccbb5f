import type { ServiceDefinition } from '@platform/kit';
import { forgetChangedApplications } from './consumers/application-events';
import { publishingDeps } from './publishing-deps';
import { registerDomainRoutes } from './routes/domains';
import { registerPublicDomainRoutes } from './routes/public-domains';
import { registerVersionRoutes } from './routes/versions';

/** The publishing service: immutable application versions, domains with pins, public resolution. */
export const publishingService: ServiceDefinition = {
  name: 'publishing',
  routes: async (app, context) => {
    const deps = publishingDeps(context);
    registerVersionRoutes(app, deps);
    registerDomainRoutes(app, deps);
    registerPublicDomainRoutes(app, deps);
  },
  start: async (context) => {
    const deps = publishingDeps(context);
    await deps.domains.ensureIndexes();
    const subscription = await forgetChangedApplications(context.bus, deps.resolutions);
    return () => subscription.stop();
  },
};
