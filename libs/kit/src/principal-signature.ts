import { createHmac, timingSafeEqual } from 'node:crypto';
import { principalSchema, type Principal } from '@platform/contracts';

/** The header that carries the signed principal from the gateway to a service. */
export const PRINCIPAL_HEADER = 'x-platform-principal';

/** How long a signature stays valid; it only has to cross one hop inside the platform. */
const SIGNATURE_LIFETIME_MS = 60_000;
/** Clock difference tolerated between the gateway and a service when checking `exp`. */
const CLOCK_SKEW_MS = 5_000;

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

/**
 * The MAC's bytes when `encoded` is their one canonical unpadded base64url spelling, else null.
 * Node's decoder skips padding, stray characters and unused trailing bits, so several strings
 * decode to the same bytes; accepting only the canonical one keeps a header from having variants.
 */
function canonicalMacBytes(encoded: string): Buffer | null {
  const bytes = Buffer.from(encoded, 'base64url');
  return bytes.toString('base64url') === encoded ? bytes : null;
}

/** `base64url(JSON {p, exp}).base64url(HMAC-SHA256)`, signed with the shared secret. */
export function signPrincipal(principal: Principal, secret: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ p: principal, exp: now + SIGNATURE_LIFETIME_MS })).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** A principal whose signature checked out, with the moment (ms) that signature expires. */
export interface VerifiedPrincipal {
  principal: Principal;
  exp: number;
}

/**
 * The secrets a signature is checked against: PRINCIPAL_SECRET, and while it is being rotated the
 * other one PRINCIPAL_SECRET_FALLBACK names (docs/architecture.md, The principal secret). Only
 * the first ever signs.
 */
export type VerifyingSecrets = string | readonly string[];

/** The secrets to check a signature against: the current one, then the fallback when one is set. */
export function acceptedSecrets(current: string, fallback: string | undefined): readonly string[] {
  return fallback === undefined ? [current] : [current, fallback];
}

/** Whether `given` is the MAC of `payload` under one of `secrets`. */
export function macMatches(given: Buffer, payload: string, secrets: VerifyingSecrets, macOf: (secret: string, payload: string) => Buffer = mac): boolean {
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = macOf(secret, payload);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return false;
}

/**
 * The principal and its signature's `exp` when the header carries a valid signature (under one of
 * `secrets`) whose `exp` lies within one lifetime (plus skew) from now, else null. A far-future
 * `exp` is refused even when signed: no gateway makes one, so it can only be a leaked or forged
 * long-lived header.
 */
export function verifySignedPrincipal(header: string | undefined, secrets: VerifyingSecrets, now = Date.now()): VerifiedPrincipal | null {
  if (!header) return null;
  const dot = header.indexOf('.');
  if (dot <= 0) return null;
  const payload = header.slice(0, dot);
  const given = canonicalMacBytes(header.slice(dot + 1));
  if (!given || !macMatches(given, payload, secrets)) return null;
  try {
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { p?: unknown; exp?: unknown };
    if (typeof decoded.exp !== 'number' || decoded.exp < now || decoded.exp > now + SIGNATURE_LIFETIME_MS + CLOCK_SKEW_MS) return null;
    const parsed = principalSchema.safeParse(decoded.p);
    return parsed.success ? { principal: parsed.data, exp: decoded.exp } : null;
  } catch {
    return null;
  }
}

/** The principal of a validly signed, unexpired header (verifySignedPrincipal), else null. */
export function verifyPrincipal(header: string | undefined, secrets: VerifyingSecrets, now = Date.now()): Principal | null {
  return verifySignedPrincipal(header, secrets, now)?.principal ?? null;
}
