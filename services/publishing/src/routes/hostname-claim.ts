import { AppError } from '@platform/kit';
import { pendingClaim, provenClaim, verificationRecord, type ClaimFields } from '../domain/claim';
import { takeoverToken } from '../domain/takeover';
import { publishingError } from '../errors';
import type { PublishingDeps } from '../publishing-deps';
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

/**
 * Gives a domain of `projectId` the hostname through `write`, with a new pending claim. When
 * another project's unverified claim (pending or expired) holds it, control of the DNS decides
 * rather than who asked first: with this project's takeover record published, that claim is
 * removed and `write` runs again with a claim proven at once; without it, 409 naming the record.
 * A verified domain, or a claim of this project, is never taken this way.
 */
export async function claimHostname<T>(
  deps: Pick<PublishingDeps, 'config' | 'domains' | 'verifier' | 'takeoverKey'>,
  projectId: string,
  hostname: string,
  now: number,
  write: (claim: ClaimFields) => Promise<T>,
): Promise<T> {
  try {
    return await write(pendingClaim(now, deps.config.claimTtlMs));
  } catch (error) {
    if (!isHostnameTaken(error)) throw error;
  }
  const holder = await deps.domains.byHostname(hostname);
  const holderToken = holder?.verificationToken;
  if (!holder || holder.projectId === projectId || holderToken === undefined) throw publishingError('PUBLISHING_HOSTNAME_TAKEN');
  const token = takeoverToken(await deps.takeoverKey.key(), projectId, hostname);
  const outcome = await deps.verifier.check(hostname, token);
  if (!outcome.proven) throw outcome.failure === 'lookup-failed' ? verificationFailed(hostname, token, outcome.failure) : takeoverOffered(hostname, token);
  // The claim goes as the expired ones do (stores/domains.ts): without an item in its project's trail, as no member of it removed it.
  if (!(await deps.domains.removeUnverifiedClaim(holder.id, hostname, holderToken))) throw publishingError('PUBLISHING_HOSTNAME_TAKEN');
  return write(provenClaim(now));
}
