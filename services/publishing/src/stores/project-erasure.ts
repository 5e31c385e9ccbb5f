import type { ErasedCounts } from '@platform/kit';
import type { PublishingDeps } from '../publishing-deps';

/** Erases a purged project's versions, domains (their hostnames free for any project from then on) and domain changes not published yet. */
export async function eraseProjectPublications(deps: Pick<PublishingDeps, 'domains' | 'versions' | 'resolutions' | 'domainChanges'>, projectId: string): Promise<ErasedCounts> {
  const versions = await deps.versions.eraseProject(projectId);
  const domains = await deps.domains.eraseProject(projectId);
  deps.resolutions.forgetHostnames(domains.map((domain) => domain.hostname));
  return { versions, domains: domains.length, waitingEvents: await deps.domainChanges.eraseProject(projectId) };
}
