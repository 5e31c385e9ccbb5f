import type { Principal } from '@platform/contracts';
import { verifySignedPrincipal, type VerifiedPrincipal, type VerifyingSecrets } from './principal-signature';

/** Bounds the cache; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

/**
 * Checks signed principal headers, remembering each header that checked out until its signature
 * expires: the gateway reuses a header for seconds (its caching signer), and an HMAC, a JSON parse
 * and a schema parse per proxied request were most of what a service paid for the gateway's
 * requests. A remembered header answers exactly what checking it again would (the same header,
 * secrets and principal; its `exp` is compared with the clock on every use), so only the work
 * is saved. Refused headers are not remembered: they are checked every time, as before.
 */
export function cachingPrincipalVerifier(secrets: VerifyingSecrets, clock: () => number = Date.now): (header: string | undefined) => Principal | null {
  const verified = new Map<string, VerifiedPrincipal>();
  return (header) => {
    if (!header) return null;
    const now = clock();
    const cached = verified.get(header);
    if (cached && cached.exp >= now) return cached.principal;
    verified.delete(header);
    const fresh = verifySignedPrincipal(header, secrets, now);
    if (!fresh) return null;
    if (verified.size >= MAX_ENTRIES) verified.delete(verified.keys().next().value as string);
    // Frozen: one object now serves every request that carries this header.
    verified.set(header, { principal: Object.freeze(fresh.principal), exp: fresh.exp });
    return fresh.principal;
  };
}
