import { errorCatalogue } from '@platform/kit';

/** The publishing service's errors; codes are stable, clients may switch on them. */
export const publishingError = errorCatalogue({
  PUBLISHING_APPLICATION_NOT_FOUND: [404, 'Application not found'],
  PUBLISHING_VERSION_NOT_FOUND: [404, 'Version not found'],
  PUBLISHING_FORBIDDEN: [403, 'You may not do this'],
  PUBLISHING_CONCURRENT_PUBLISH: [409, 'Another publish or change of this application won the race; reload and publish again'],
  PUBLISHING_DOMAIN_NOT_FOUND: [404, 'Domain not found'],
  PUBLISHING_HOSTNAME_TAKEN: [409, 'This hostname is already registered'],
  PUBLISHING_INVALID_TARGET: [400, 'Invalid assignment target'],
  PUBLISHING_NOTHING_PUBLISHED: [404, 'Nothing is published on this domain'],
  PUBLISHING_VERIFICATION_FAILED: [400, 'The verification record was not found'],
  PUBLISHING_CONCURRENT_DOMAIN_CHANGE: [409, 'The domain kept changing while this change was being made; reload it and try again'],
  PUBLISHING_DOMAIN_CHANGED: [409, 'The domain changed during verification; reload it and verify again'],
  PUBLISHING_VERIFICATION_UNAVAILABLE: [503, 'The DNS lookup failed; try again shortly'],
});
