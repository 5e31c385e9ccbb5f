import type { ServiceDefinition } from '@platform/kit';
import { identityDeps } from './identity-deps';
import { registerAdminRoutes } from './routes/admin';
import { registerAuthRoutes } from './routes/auth';
import { registerDevPromotionRoute } from './routes/dev-promotion';
import { registerMeRoutes } from './routes/me';
import { registerProjectRoutes } from './routes/projects';
import { registerTenantRoutes } from './routes/tenants';
import { registerUserRoutes } from './routes/users';

/** The identity service: accounts, sessions, tenants, projects and members, profile, platform administration. */
export const identityService: ServiceDefinition = {
  name: 'identity',
  routes: async (app, context) => {
    const deps = identityDeps(context);
    registerAuthRoutes(app, deps);
    registerMeRoutes(app, deps);
    registerUserRoutes(app, deps);
    registerProjectRoutes(app, deps);
    registerTenantRoutes(app, deps);
    registerAdminRoutes(app, deps);
    registerDevPromotionRoute(app, deps);
  },
  start: async (context) => {
    const deps = identityDeps(context);
    await Promise.all([deps.users.ensureIndexes(), deps.projects.ensureIndexes(), deps.tenants.ensureIndexes()]);
    // Promotion tokens do not survive a restart of identity (spec: pending → gone).
    await deps.promotions.clearAll().catch((error: unknown) => context.logger.warn({ err: error }, 'promotion tokens could not be cleared'));
    return async () => undefined;
  },
};
