import type { ServiceDefinition } from '@platform/kit';

/** The publishing service. Its routes and consumers arrive with its issue; it already runs in both shapes. */
export const publishingService: ServiceDefinition = {
  name: 'publishing',
  routes: async () => {},
};
