import { dataDeps, type DataDeps } from '@platform/documents';
import { ConfigError, EventOutbox, type ServiceContext } from '@platform/kit';
import type { PublishingConfig } from './config';
import { Publisher } from './publish/publisher';
import { ResolutionCache } from './resolution/resolution-cache';
import { DomainResolver, type Resolution } from './resolution/resolver';
import { ApplicationReader } from './stores/applications';
import { DOMAIN_CHANGES_OUTBOX_COLLECTION } from './stores/domain-changes';
import { DomainStore } from './stores/domains';
import { TakeoverKeyStore } from './stores/takeover-key';
import { VersionStore } from './stores/versions';
import { DnsTxtVerifier, systemResolveTxt, type ResolveTxt } from './verification/dns-txt-verifier';
import type { DomainVerifier } from './verification/domain-verifier';
import { uncheckedVerifier } from './verification/unchecked-verifier';

/**
 * How long another replica may answer an old resolution after a change: this process forgets at
 * once (the writes go through it, and application events reach its consumer), the others at TTL.
 */
export const RESOLUTION_TTL_MS = 1_000;
const RESOLUTION_CACHE_SIZE = 10_000;
/** And the characters of their JSON: 32 Mi, thousands of usual answers, 30-odd of the largest. */
const RESOLUTION_CACHE_CHARACTERS = 32 * 1024 * 1024;

export interface PublishingDeps {
  config: PublishingConfig;
  data: DataDeps;
  applications: ApplicationReader;
  versions: VersionStore;
  domains: DomainStore;
  /** Every change of a domain by a user, for the audit trail (stores/domain-changes.ts). */
  domainChanges: EventOutbox;
  verifier: DomainVerifier;
  /** The key of the DNS records that take a hostname from another project's unverified claim. */
  takeoverKey: TakeoverKeyStore;
  publisher: Publisher;
  resolutions: ResolutionCache<Resolution>;
  clock: () => number;
}

/** Unchecked verification lets anyone take any hostname: never in production. */
function domainVerifier(context: ServiceContext, config: PublishingConfig, resolveTxt: ResolveTxt | undefined): DomainVerifier {
  if (config.domainVerification === 'dns') return new DnsTxtVerifier(resolveTxt ?? systemResolveTxt(config.dnsTimeoutMs));
  if (!context.dev) throw new ConfigError(['PUBLISHING_DOMAIN_VERIFICATION: off is for development only and refused when NODE_ENV=production']);
  context.logger.warn('PUBLISHING_DOMAIN_VERIFICATION=off: domains are verified without any check (development only)');
  return uncheckedVerifier;
}

/** The publishing service's collaborators for a context, shared by its routes and consumers. */
export function createPublishingDeps(context: ServiceContext, config: PublishingConfig, resolveTxt?: ResolveTxt): PublishingDeps {
  const data = dataDeps(context);
  const applications = new ApplicationReader(context.store);
  const versions = new VersionStore(context.store);
  const domains = new DomainStore(context.store);
  const verifier = domainVerifier(context, config, resolveTxt);
  const takeoverKey = new TakeoverKeyStore(context.store);
  const resolver = new DomainResolver(domains, applications, versions, context.store);
  const resolutions = new ResolutionCache<Resolution>((hostname) => resolver.resolve(hostname), { ttlMs: RESOLUTION_TTL_MS, max: RESOLUTION_CACHE_SIZE, maxCharacters: RESOLUTION_CACHE_CHARACTERS });
  const publisher = new Publisher(applications, versions, data.writer, context.clock, (projectId, applicationId) => resolutions.forgetApplication(projectId, applicationId));
  const domainChanges = new EventOutbox({ store: context.store, bus: context.bus, clock: context.clock, logger: context.logger }, DOMAIN_CHANGES_OUTBOX_COLLECTION);
  return { config, data, applications, versions, domains, domainChanges, verifier, takeoverKey, publisher, resolutions, clock: context.clock };
}
