import type { DomainVerifier, VerificationOutcome } from './domain-verifier';

/** PUBLISHING_DOMAIN_VERIFICATION=off (development only): every verification succeeds without a check. */
export const uncheckedVerifier: DomainVerifier = {
  check: async (): Promise<VerificationOutcome> => ({ proven: true }),
};
