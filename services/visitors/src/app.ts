import type { ServiceDefinition } from '@platform/kit';

/** The visitors service. Its routes and consumers arrive with its issue; it already runs in both shapes. */
export const visitorsService: ServiceDefinition = {
  name: 'visitors',
  routes: async () => {},
};
