import { actionsService } from '@platform/actions';
import { auditService } from '@platform/audit';
import type { BackendServiceName } from '@platform/contracts';
import { dataService } from '@platform/data';
import { identityService } from '@platform/identity';
import type { ServiceDefinition } from '@platform/kit';
import { publishingService } from '@platform/publishing';
import { visitorsService } from '@platform/visitors';

/** Every backend service by name; the gateway is built separately because it hosts the others. */
export const serviceRegistry: Record<BackendServiceName, ServiceDefinition> = {
  identity: identityService,
  data: dataService,
  audit: auditService,
  publishing: publishingService,
  actions: actionsService,
  visitors: visitorsService,
};
