import { createHmac } from 'node:crypto';
import { macMatches, type VerifyingSecrets } from '@platform/kit';
import { z } from 'zod';

/**
 * What a realtime token vouches for: a user and the session it was issued from, named by the
 * SHA-256 of the session token (the key the session is stored under; not a credential, since a
 * presented session token is hashed again). Standing such as platform ownership is not in it: the
 * stream route reads it from the session when the stream opens, so a token cannot outlive or
 * outrank its session.
 */
const claimsSchema = z.object({
  u: z.string().min(1),
  s: z.string().regex(/^[0-9a-f]{64}$/),
  exp: z.number().int(),
});

export interface RealtimeClaims {
  userId: string;
  sessionHash: string;
}

export const REALTIME_TOKEN_LIFETIME_MS = 60_000;

/**
 * Signed with a key derived from the principal secret, so that a realtime token is never accepted
 * as a service-to-service principal header, nor the other way round.
 */
function signature(principalSecret: string, payload: string): Buffer {
  const key = createHmac('sha256', principalSecret).update('realtime-token').digest();
  return createHmac('sha256', key).update(payload).digest();
}

/** `base64url(JSON claims).base64url(HMAC-SHA256)`, valid for 60 seconds: long enough to open the stream. */
export function issueRealtimeToken(claims: RealtimeClaims, principalSecret: string, now: number): { token: string; expiresAt: number } {
  const expiresAt = now + REALTIME_TOKEN_LIFETIME_MS;
  const payload = Buffer.from(JSON.stringify({ u: claims.userId, s: claims.sessionHash, exp: expiresAt })).toString('base64url');
  return { token: `${payload}.${signature(principalSecret, payload).toString('base64url')}`, expiresAt };
}

/** The claims of a token this server (or another gateway sharing one of `secrets`) signed and that has not expired, else null. */
export function verifyRealtimeToken(token: string, secrets: VerifyingSecrets, now: number): RealtimeClaims | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  if (!macMatches(given, payload, secrets, signature)) return null;
  try {
    const claims = claimsSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString()));
    if (!claims.success || claims.data.exp < now) return null;
    return { userId: claims.data.u, sessionHash: claims.data.s };
  } catch {
    return null;
  }
}
