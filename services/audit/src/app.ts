import type { ServiceDefinition } from '@platform/kit';

/** The audit service. Its routes and consumers arrive with its issue; it already runs in both shapes. */
export const auditService: ServiceDefinition = {
  name: 'audit',
  routes: async () => {},
};
