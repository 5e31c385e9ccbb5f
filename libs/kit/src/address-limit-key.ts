import ipaddr from 'ipaddr.js';

/** How many leading bits of an IPv6 address one client holds: a /64 is the smallest block a site is given. */
const IPV6_CLIENT_PREFIX_BITS = 64;

/**
 * The key a per-address limit counts a client under. An IPv6 client is keyed by its /64 prefix
 * (`2001:db8:1:2::/64`): whoever holds a /64 may send from any of its 2^64 addresses, so a full
 * address would give each of them a budget of its own. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports) is keyed as its IPv4 address, like the
 * same client over IPv4. Anything that is no IP address stays as it is.
 */
export function addressLimitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().slice(0, IPV6_CLIENT_PREFIX_BITS / 8);
  const prefix = ipaddr.fromByteArray([...bytes, ...new Array<number>(16 - bytes.length).fill(0)]);
  return `${prefix.toString()}/${IPV6_CLIENT_PREFIX_BITS}`;
}
