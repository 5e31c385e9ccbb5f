import { domainChangeMessageId, domainChangeSubject, type DomainChange, type DomainTarget } from '@platform/contracts';
import type { OutboxMessage } from '@platform/kit';
import type { StoredDomain } from './domains';

/** Domain changes made but not published yet (kit's EventOutbox). */
export const DOMAIN_CHANGES_OUTBOX_COLLECTION = 'publishing-domain-changes-outbox';

/** A pinned version's number, when the version exists. */
export type VersionNumberOf = (projectId: string, versionId: string) => Promise<number | undefined>;

async function targetOf(domain: StoredDomain, versionNumber: VersionNumberOf): Promise<DomainTarget | undefined> {
  if (!domain.targetId) return undefined;
  if (!domain.targetVersionId) return { applicationId: domain.targetId, versionId: null };
  const number = await versionNumber(domain.projectId, domain.targetVersionId);
  return { applicationId: domain.targetId, versionId: domain.targetVersionId, ...(number === undefined ? {} : { versionNumber: number }) };
}

function sameTarget(a: StoredDomain, b: StoredDomain): boolean {
  return a.targetId === b.targetId && a.targetVersionId === b.targetVersionId;
}

/**
 * The audit trail's message for one change of a domain, from the domain after it (and before it,
 * for a rename or an assignment); none when the change changed nothing a reader of the trail
 * would see (the same hostname or target again). Application titles are left out: a member who
 * may list domains may not be allowed to read the application.
 */
export async function domainChangeMessages(
  change: DomainChange['change'],
  domains: { after: StoredDomain; before?: StoredDomain },
  changedBy: string,
  now: number,
  versionNumber: VersionNumberOf,
): Promise<OutboxMessage[]> {
  const { after, before } = domains;
  if (change === 'renamed' && before?.hostname === after.hostname) return [];
  if (change === 'assigned' && before && sameTarget(before, after)) return [];
  const target = await targetOf(after, versionNumber);
  const previousTarget = change === 'assigned' && before ? await targetOf(before, versionNumber) : undefined;
  const data: DomainChange = {
    projectId: after.projectId,
    domainId: after.id,
    revision: change === 'removed' ? after.revision + 1 : after.revision,
    hostname: after.hostname,
    change,
    ...(change === 'renamed' && before ? { previousHostname: before.hostname } : {}),
    ...(target ? { target } : {}),
    ...(previousTarget ? { previousTarget } : {}),
    changedBy,
    timestamp: now,
  };
  return [{ subject: domainChangeSubject(data.projectId), msgId: domainChangeMessageId(data), data }];
}
