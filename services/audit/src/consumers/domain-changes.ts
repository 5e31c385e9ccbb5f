import type { Subscription } from '@platform/bus';
import { DOMAIN_CHANGES_FILTER, domainChangeSchema, type DomainChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeDomainChange } from '../domain/change-description';
import type { Names } from '../trail/names';
import { DOMAINS_TYPE_ID, DOMAINS_TYPE_NAME, entityKeyOf, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';

/** The durable the audit replicas share for domain changes. */
export const DOMAIN_CHANGES_CONSUMER = 'audit-domain-changes';

/** The trail item of one change of a domain: its hostname as the title, where it points, and before. */
export async function domainEntry(change: DomainChange, names: Pick<Names, 'userDisplayName'>): Promise<TrailEntry> {
  const entityKey = entityKeyOf(DOMAINS_TYPE_ID, change.domainId);
  return {
    id: `${entityKey}/${change.revision}`,
    projectId: change.projectId,
    entityKey,
    revision: change.revision,
    entityId: change.domainId,
    entityTitle: change.hostname,
    entityTypeId: DOMAINS_TYPE_ID,
    entityTypeName: DOMAINS_TYPE_NAME,
    ...describeDomainChange(change.change),
    userId: change.changedBy,
    userDisplayName: await names.userDisplayName(change.changedBy),
    timestamp: change.timestamp,
    ...(change.target ? { target: change.target } : {}),
    ...(change.previousTarget ? { previousTarget: change.previousTarget } : {}),
    ...(change.previousHostname ? { previousTitle: change.previousHostname } : {}),
  };
}

/**
 * Records the publishing service's domain changes (contracts' DomainChange) in the trail; every
 * member may list a project's domains, so every member may read their changes. A redelivery
 * changes nothing.
 */
export function startDomainChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore, names: Pick<Names, 'userDisplayName'>): Promise<Subscription> {
  return context.bus.subscribe<unknown>({
    durable: DOMAIN_CHANGES_CONSUMER,
    filter: DOMAIN_CHANGES_FILTER,
    handler: async (message) => {
      const parsed = domainChangeSchema.safeParse(message.data);
      if (!parsed.success) {
        // A message no retry can fix; acknowledging it keeps it from blocking the stream.
        context.logger.error({ msgId: message.msgId, subject: message.subject, issues: parsed.error.issues }, 'malformed domain change skipped');
        return;
      }
      await trail.recordProjectRecordChange(await domainEntry(parsed.data, names));
    },
  });
}
