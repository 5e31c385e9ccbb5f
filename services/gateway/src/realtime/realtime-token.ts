import type { Principal } from '@platform/contracts';
import { signPrincipal, verifyPrincipal } from '@platform/kit';

/**
 * A realtime token: the caller's principal signed for 60 seconds, long enough to open the stream
 * (an EventSource cannot send an Authorization header). Signed with a key derived from the principal
 * secret so that it is never accepted as a service-to-service principal header.
 */
function tokenKey(principalSecret: string): string {
  return `${principalSecret}:realtime-token`;
}

export const REALTIME_TOKEN_LIFETIME_MS = 60_000;

export function issueRealtimeToken(principal: Principal, principalSecret: string, now: number): { token: string; expiresAt: number } {
  return { token: signPrincipal(principal, tokenKey(principalSecret), now), expiresAt: now + REALTIME_TOKEN_LIFETIME_MS };
}

export function verifyRealtimeToken(token: string | undefined, principalSecret: string, now: number): Principal | null {
  return verifyPrincipal(token, tokenKey(principalSecret), now);
}
