import { anonymousPrincipal, type Principal } from '@platform/contracts';
import { signPrincipal } from '@platform/kit';

/** How long a signature is reused; well inside its one-minute validity (principal-signature.ts). */
const REUSE_MS = 10_000;
/** Bounds the cache; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;
/** The shared anonymous principal is frozen, so its key is made once rather than per anonymous request. */
const ANONYMOUS_KEY = JSON.stringify(anonymousPrincipal);

/**
 * Signs the principal for the proxy hop, reusing a signature made for the same principal in the
 * last few seconds: an HMAC per proxied request was one of the larger costs of the hop. Keyed by
 * the whole principal, so a changed session (name, language, owner flag) is signed afresh.
 */
export function cachingPrincipalSigner(secret: string, clock: () => number = Date.now): (principal: Principal) => string {
  const signed = new Map<string, { header: string; reuseUntil: number }>();
  return (principal) => {
    const key = principal === anonymousPrincipal ? ANONYMOUS_KEY : JSON.stringify(principal);
    const now = clock();
    const cached = signed.get(key);
    if (cached && cached.reuseUntil > now) return cached.header;
    signed.delete(key);
    if (signed.size >= MAX_ENTRIES) signed.delete(signed.keys().next().value as string);
    const header = signPrincipal(principal, secret, now);
    signed.set(key, { header, reuseUntil: now + REUSE_MS });
    return header;
  };
}
