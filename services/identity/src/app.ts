import type { ServiceDefinition } from '@platform/kit';
import { meRoutes } from './routes/me';

/** The identity service: users, sessions, projects and members, profile. */
export const identityService: ServiceDefinition = {
  name: 'identity',
  routes: async (app, context) => {
    await app.register(meRoutes, context);
  },
};
