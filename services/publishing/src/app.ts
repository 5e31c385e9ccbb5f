import { erasePurgedProjects, type ServiceContext, type ServiceDefinition } from '@platform/kit';
import { loadPublishingConfig, type PublishingConfig } from './config';
import { forgetChangedApplications } from './consumers/application-events';
import { createPublishingDeps, type PublishingDeps } from './publishing-deps';
import { registerDomainRoutes } from './routes/domains';
import { registerPublicDomainRoutes } from './routes/public-domains';
import { registerVersionRoutes } from './routes/versions';
import { eraseProjectPublications } from './stores/project-erasure';
import type { ResolveTxt } from './verification/dns-txt-verifier';

export interface PublishingServiceOptions {
  /** Replace settings read from the environment. */
  config?: Partial<PublishingConfig>;
  /** The DNS TXT lookup domain verification uses (node:dns by default; tests give their own records). */
  resolveTxt?: ResolveTxt;
}

/** The publishing service: immutable application versions, domains with pins and verification, public resolution. */
export function createPublishingService(options: PublishingServiceOptions = {}): ServiceDefinition {
  const depsByContext = new WeakMap<ServiceContext, PublishingDeps>();
  const depsFor = (context: ServiceContext): PublishingDeps => {
    let deps = depsByContext.get(context);
    if (!deps) {
      deps = createPublishingDeps(context, { ...loadPublishingConfig(), ...options.config }, options.resolveTxt);
      depsByContext.set(context, deps);
    }
    return deps;
  };

  return {
    name: 'publishing',
    routes: async (app, context) => {
      const deps = depsFor(context);
      registerVersionRoutes(app, deps);
      registerDomainRoutes(app, deps);
      registerPublicDomainRoutes(app, deps);
    },
    start: async (context) => {
      const deps = depsFor(context);
      await Promise.all([deps.domains.ensureIndexes(), deps.domainChanges.ensureIndexes()]);
      // Domain changes an earlier run made but could not publish (the bus down, a stop between the two).
      deps.domainChanges.start();
      const subscriptions = [
        await forgetChangedApplications(context.bus, deps.resolutions),
        await erasePurgedProjects(context.bus, 'publishing', (projectId) => eraseProjectPublications(deps, projectId), context.logger),
      ];
      return async () => {
        deps.domainChanges.stop();
        await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      };
    },
  };
}

export const publishingService: ServiceDefinition = createPublishingService();
