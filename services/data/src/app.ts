import type { ServiceDefinition } from '@platform/kit';

/** The data service. Its routes and consumers arrive with its issue; it already runs in both shapes. */
export const dataService: ServiceDefinition = {
  name: 'data',
  routes: async () => {},
};
