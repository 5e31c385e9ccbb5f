import type { ServiceDefinition } from '@platform/kit';

/** The actions service. Its routes and consumers arrive with its issue; it already runs in both shapes. */
export const actionsService: ServiceDefinition = {
  name: 'actions',
  routes: async () => {},
};
