import { verificationRecord } from '../domain/claim';
import { publishingError } from '../errors';
import type { VerificationFailure } from '../verification/domain-verifier';

/** Why the TXT record holding `token` did not prove control of the hostname: 503 when the lookup failed, else 400 naming the record to add. */
export function verificationFailed(hostname: string, token: string, failure: VerificationFailure) {
  const record = verificationRecord(hostname, token);
  if (failure === 'lookup-failed') {
    return publishingError('PUBLISHING_VERIFICATION_UNAVAILABLE', { message: `The DNS lookup of ${record.name} failed; try again shortly`, details: { retryAfterSeconds: 30 } });
  }
  const found = failure === 'no-record' ? `No TXT record ${record.name} was found` : `The TXT records of ${record.name} do not hold ${record.value}`;
  return publishingError('PUBLISHING_VERIFICATION_FAILED', {
    message: `${found}: add a TXT record ${record.name} with the value ${record.value}, wait until DNS serves it, and verify again`,
    details: { record },
  });
}
