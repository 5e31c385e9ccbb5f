import { dataDeps, type DataDeps } from '@platform/data';
import type { ServiceContext } from '@platform/kit';
import { Publisher } from './publish/publisher';
import { ResolutionCache } from './resolution/resolution-cache';
import { DomainResolver, type Resolution } from './resolution/resolver';
import { ApplicationReader } from './stores/applications';
import { DomainStore } from './stores/domains';
import { VersionStore } from './stores/versions';

/**
 * How long another replica may answer an old resolution after a change: this process forgets at
 * once (the writes go through it, and application events reach its consumer), the others at TTL.
 */
export const RESOLUTION_TTL_MS = 1_000;
const RESOLUTION_CACHE_SIZE = 10_000;

export interface PublishingDeps {
  data: DataDeps;
  applications: ApplicationReader;
  versions: VersionStore;
  domains: DomainStore;
  publisher: Publisher;
  resolutions: ResolutionCache<Resolution>;
  clock: () => number;
}

const depsByContext = new WeakMap<ServiceContext, PublishingDeps>();

/** The publishing service's collaborators for a context, shared by its routes and consumers. */
export function publishingDeps(context: ServiceContext): PublishingDeps {
  const existing = depsByContext.get(context);
  if (existing) return existing;
  const data = dataDeps(context);
  const applications = new ApplicationReader(context.store);
  const versions = new VersionStore(context.store);
  const domains = new DomainStore(context.store);
  const resolver = new DomainResolver(domains, applications, versions);
  const resolutions = new ResolutionCache<Resolution>((hostname) => resolver.resolve(hostname), { ttlMs: RESOLUTION_TTL_MS, max: RESOLUTION_CACHE_SIZE });
  const publisher = new Publisher(applications, versions, data.writer, context.clock, (projectId, applicationId) => resolutions.forgetApplication(projectId, applicationId));
  const deps: PublishingDeps = { data, applications, versions, domains, publisher, resolutions, clock: context.clock };
  depsByContext.set(context, deps);
  return deps;
}
