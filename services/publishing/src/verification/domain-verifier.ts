/**
 * Why a check did not prove control: no record at the expected name, records that do not hold the
 * token, or a lookup that failed (the answer is unknown, so the owner should try again).
 */
export type VerificationFailure = 'no-record' | 'wrong-value' | 'lookup-failed';

export type VerificationOutcome = { proven: true } | { proven: false; failure: VerificationFailure };

/** The port that checks a domain owner's proof of control of a hostname. */
export interface DomainVerifier {
  check(hostname: string, token: string): Promise<VerificationOutcome>;
}
