import { randomBytes } from 'node:crypto';
import type { UpdateModifier } from '@platform/storage';

/**
 * A domain's claim on its hostname. A new (or renamed) domain is `pending` with a random token
 * until its owner proves control of the hostname; a pending claim past its expiry is `expired` and
 * no longer holds the hostname against other projects. Only `verified` domains resolve.
 */
export type ClaimStatus = 'pending' | 'verified' | 'expired';

/** The stored claim fields; a domain without a token is verified (so are those stored before verification existed). */
export interface ClaimFields {
  verificationToken?: string;
  verificationExpiresAt?: number;
  verifiedAt?: number;
}

/** The DNS record that proves control: `_platform-verify.<hostname>` TXT `platform-verify=<token>`. */
export function verificationRecord(hostname: string, token: string): { type: 'TXT'; name: string; value: string } {
  return { type: 'TXT', name: `_platform-verify.${hostname}`, value: `platform-verify=${token}` };
}

export function isVerified(domain: ClaimFields): boolean {
  return domain.verificationToken === undefined;
}

export function claimStatus(domain: ClaimFields, now: number): ClaimStatus {
  if (isVerified(domain)) return 'verified';
  return (domain.verificationExpiresAt ?? 0) > now ? 'pending' : 'expired';
}

/** A fresh pending claim: 128 random bits, so a token cannot be guessed or reused from another claim. */
export function pendingClaim(now: number, ttlMs: number): Required<Pick<ClaimFields, 'verificationToken' | 'verificationExpiresAt'>> {
  return { verificationToken: randomBytes(16).toString('hex'), verificationExpiresAt: now + ttlMs };
}

/** A claim proven as it is made (a takeover by DNS, routes/hostname-claim.ts): verified from the start. */
export function provenClaim(now: number): ClaimFields {
  return { verifiedAt: now };
}

const CLAIM_FIELDS = ['verificationToken', 'verificationExpiresAt', 'verifiedAt'] as const;

/**
 * A rename starts a new claim, `claim` (pending, or proven): control of the old hostname proves
 * nothing about the new one, so the old claim's fields go.
 */
export function renameModifier(hostname: string, claim: ClaimFields, now: number): UpdateModifier {
  const dropped = CLAIM_FIELDS.filter((field) => claim[field] === undefined);
  return { $set: { hostname, ...claim, updatedAt: now }, $unset: Object.fromEntries(dropped.map((field) => [field, ''])), $inc: { revision: 1 } };
}

export function verifiedModifier(now: number): UpdateModifier {
  return { $set: { verifiedAt: now, updatedAt: now }, $unset: { verificationToken: '', verificationExpiresAt: '' }, $inc: { revision: 1 } };
}
