import { AppError } from '@platform/kit';
import { pendingClaim, provenClaim, verificationRecord, type ClaimFields } from '../domain/claim';
import { takeoverToken } from '../domain/takeover';
import { publishingError } from '../errors';
import type { PublishingDeps } from '../publishing-deps';
import type { StoredDomain } from '../stores/domains';
import { verificationFailed } from './verification-failure';

function isHostnameTaken(error: unknown): boolean {
  return error instanceof AppError && error.code === 'PUBLISHING_HOSTNAME_TAKEN';
}

/** 409 that tells the caller how to take the hostname from an unverified claim: the TXT record to publish. */
function takeoverOffered(hostname: string, token: string) {
  const record = verificationRecord(hostname, token);
  return publishingError('PUBLISHING_HOSTNAME_TAKEN', {
    message: `${hostname} is claimed by another project that has not verified it. If you control its DNS, add a TXT record ${record.name} with the value ${record.value}, wait until DNS serves it, and send this request again: the hostname then becomes yours, verified`,
    details: { record },
  });
}

/** How often a proven takeover writes again when a new unverified claim took the hostname it freed. */
const TAKEOVER_ATTEMPTS = 3;

/** A claim a takeover by DNS may remove: another project's, and unverified (pending or expired). */
function takeable(holder: StoredDomain, projectId: string): holder is StoredDomain & { verificationToken: string } {
  return holder.projectId !== projectId && holder.verificationToken !== undefined;
}

/** Gives a domain of the project the hostname through `write` (see hostnameClaim); answers what `write` answers. */
export type HostnameClaim = <T>(now: number, write: (claim: ClaimFields) => Promise<T>) => Promise<T>;

/**
 * Gives a domain of `projectId` the hostname through `write`, with a new pending claim. When
 * another project's unverified claim (pending or expired) holds it, control of the DNS decides
 * rather than who asked first: with this project's takeover record published, that claim is
 * removed and `write` runs again with a claim proven at once; without it, 409 naming the record.
 * A verified domain, or a claim of this project, is never taken this way.
 *
 * One per request, for every attempt of it: once proven, the proof (of the hostname, for this
 * project) holds for the request's later writes too, so a retry after the domain changed writes
 * the proven claim rather than a pending one on the hostname the takeover freed. When another
 * unverified claim took the freed hostname before the proven write, that one is removed too (a
 * few times at most); a verified domain that got it meanwhile keeps it (409).
 */
export function hostnameClaim(deps: Pick<PublishingDeps, 'config' | 'domains' | 'verifier' | 'takeoverKey'>, projectId: string, hostname: string): HostnameClaim {
  let proven = false;
  return async (now, write) => {
    let holder: StoredDomain | null | undefined;
    if (!proven) {
      try {
        return await write(pendingClaim(now, deps.config.claimTtlMs));
      } catch (error) {
        if (!isHostnameTaken(error)) throw error;
      }
      holder = await deps.domains.byHostname(hostname);
      if (!holder || !takeable(holder, projectId)) throw publishingError('PUBLISHING_HOSTNAME_TAKEN');
      const token = takeoverToken(await deps.takeoverKey.key(), projectId, hostname);
      const outcome = await deps.verifier.check(hostname, token);
      if (!outcome.proven) throw outcome.failure === 'lookup-failed' ? verificationFailed(hostname, token, outcome.failure) : takeoverOffered(hostname, token);
      proven = true;
    }
    for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt += 1) {
      if (attempt > 0 || holder === undefined) holder = await deps.domains.byHostname(hostname);
      if (holder) {
        if (!takeable(holder, projectId)) throw publishingError('PUBLISHING_HOSTNAME_TAKEN');
        // The claim goes as the expired ones do (stores/domains.ts): without an item in its project's trail, as no member of it removed it.
        if (!(await deps.domains.removeUnverifiedClaim(holder.id, hostname, holder.verificationToken))) continue;
      }
      try {
        return await write(provenClaim(now));
      } catch (error) {
        if (!isHostnameTaken(error)) throw error;
      }
    }
    throw publishingError('PUBLISHING_HOSTNAME_TAKEN');
  };
}
