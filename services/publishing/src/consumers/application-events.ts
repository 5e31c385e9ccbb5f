import type { EventBus, Subscription } from '@platform/bus';
import type { DocumentEvent } from '@platform/contracts';

/** Shared by the replicas of publishing; every application change reaches one of them. */
export const APPLICATION_EVENTS_DURABLE = 'publishing-resolution-cache';

/**
 * Forgets cached resolutions of an application on any change to it: a publish (from this or
 * another replica), an edit or a deletion through the data service.
 */
export function forgetChangedApplications(bus: EventBus, resolutions: { forgetApplication(projectId: string, applicationId: string): void }): Promise<Subscription> {
  return bus.subscribe<DocumentEvent>({
    durable: APPLICATION_EVENTS_DURABLE,
    filter: 'platform.docs.*.applications.>',
    handler: async ({ data }) => resolutions.forgetApplication(data.projectId, data.entityId),
  });
}
