import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * Whose X-Forwarded-For to believe, in the forms Fastify's `trustProxy` takes: nobody's, the
 * last `n` hops (the proxies in front), or the proxies' own addresses. Never `true`: that trusts
 * every hop, so the client's address is the left-most entry, which the client writes itself.
 */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for the private ranges (Fastify hands the list to it). */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const ADVICE = 'set the number of proxies in front of the gateway (1 behind one load balancer) or their addresses (comma-separated IPs or CIDR ranges, e.g. 10.0.0.0/8)';

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const valid = ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
  if (!valid || prefix === undefined) return valid;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** `TRUST_PROXY`: `false` (default), a hop count, or a comma-separated list of proxy addresses; `true` is refused. */
export const trustProxySetting = z
  .string()
  .default('false')
  .transform((raw, context): TrustProxy => {
    const value = raw.trim();
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') {
      context.addIssue({ code: 'custom', message: `true would let every client choose its own address (the left-most X-Forwarded-For entry is the client's): ${ADVICE}` });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    if (bad.length > 0) {
      context.addIssue({ code: 'custom', message: `${bad.map((entry) => JSON.stringify(entry)).join(', ')} is not a hop count, an IP address or a CIDR range: ${ADVICE}` });
      return z.NEVER;
    }
    return entries;
  });

/**
 * The setting as Fastify's `trustProxy`. A hop count becomes a function of the hop: Fastify 5.12
 * takes a bare number as "trust nothing" (it cannot check that the peer is a proxy), so only the
 * deployment, where the gateway is reachable through its proxies alone, may choose to count hops.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
