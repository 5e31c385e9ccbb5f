import type { Subscription } from '@platform/bus';
import { DOMAIN_CHANGES_FILTER, domainChangeSchema, type DomainChange } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import { describeDomainChange } from '../domain/change-description';
import type { Names } from '../trail/names';
import { projectRecordEntry } from '../trail/project-record-entry';
import { DOMAINS, type TrailEntry } from '../trail/trail-item';
import type { TrailStore } from '../trail/trail-store';
import { startValidatedConsumer } from './validated-consumer';

/** The durable the audit replicas share for domain changes. */
export const DOMAIN_CHANGES_CONSUMER = 'audit-domain-changes';

/** The trail item of one change of a domain: its hostname as the title, where it points, and before. */
export async function domainEntry(change: DomainChange, names: Pick<Names, 'userDisplayName'>): Promise<TrailEntry> {
  return projectRecordEntry(
    {
      kind: DOMAINS,
      projectId: change.projectId,
      recordId: change.domainId,
      revision: change.revision,
      title: change.hostname,
      described: describeDomainChange(change.change),
      changedBy: change.changedBy,
      changedByName: await names.userDisplayName(change.changedBy),
      timestamp: change.timestamp,
    },
    { target: change.target, previousTarget: change.previousTarget, previousTitle: change.previousHostname },
  );
}

/**
 * Records the publishing service's domain changes (contracts' DomainChange) in the trail; every
 * member may list a project's domains, so every member may read their changes. A redelivery
 * changes nothing.
 */
export function startDomainChangesConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore, names: Pick<Names, 'userDisplayName'>): Promise<Subscription> {
  return startValidatedConsumer(context, {
    durable: DOMAIN_CHANGES_CONSUMER,
    filter: DOMAIN_CHANGES_FILTER,
    schema: domainChangeSchema,
    what: 'domain change',
    handle: async (change) => trail.recordProjectRecordChange(await domainEntry(change, names)),
  });
}
