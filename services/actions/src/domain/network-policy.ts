import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An IPv6 form that carries an IPv4 address, and which 16-bit parts hold it. */
interface EmbeddingForm {
  name: string;
  network: [ipaddr.IPv6, number];
  embedded(parts: number[]): Array<[number, number]>;
}

/**
 * The IPv6 forms that reach an IPv4 host: IPv4-compatible (RFC 4291), SIIT (RFC 6145), NAT64
 * (RFC 6052), 6to4 (RFC 3056) and Teredo (RFC 4380, server and XOR-ed client). IPv4-mapped
 * addresses need no entry: `ipaddr.process` turns them into their IPv4 address.
 */
const EMBEDDING_FORMS: EmbeddingForm[] = [
  // :: and ::1 are IPv6's own unspecified and loopback addresses, judged as such.
  { name: 'IPv4-compatible', network: ipaddr.IPv6.parseCIDR('::/96'), embedded: (p) => (p[6] === 0 && (p[7] as number) <= 1 ? [] : [[p[6] as number, p[7] as number]]) },
  { name: 'SIIT', network: ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), embedded: (p) => [[p[6] as number, p[7] as number]] },
  { name: 'NAT64', network: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), embedded: (p) => [[p[6] as number, p[7] as number]] },
  { name: '6to4', network: ipaddr.IPv6.parseCIDR('2002::/16'), embedded: (p) => [[p[1] as number, p[2] as number]] },
  {
    name: 'Teredo',
    network: ipaddr.IPv6.parseCIDR('2001::/32'),
    embedded: (p) => [
      [p[2] as number, p[3] as number],
      [~(p[6] as number) & 0xffff, ~(p[7] as number) & 0xffff],
    ],
  },
];

function ipv4Of([high, low]: [number, number]): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 addresses an IPv6 address carries (none for a plain IPv6 address), with the form's name. */
export function embeddedIpv4(address: ipaddr.IPv6): Array<{ form: string; ipv4: ipaddr.IPv4 }> {
  const form = EMBEDDING_FORMS.find((candidate) => address.match(candidate.network));
  if (!form) return [];
  return form.embedded(address.parts).map((halves) => ({ form: form.name, ipv4: ipv4Of(halves) }));
}

/**
 * Which addresses a webhook may reach. Only public unicast addresses are open; private,
 * loopback, link-local, unique-local, carrier-grade NAT, multicast, reserved and the other
 * special ranges are refused unless a configured CIDR range allows them. IPv4-mapped IPv6
 * addresses are judged as the IPv4 address they carry; the other IPv6 forms that carry an IPv4
 * address (IPv4-compatible, SIIT, NAT64, 6to4, Teredo) are refused when the IPv4 address would be.
 */
export class NetworkPolicy {
  private readonly allowed: Array<[Address, number]>;

  constructor(allowedNetworks: readonly string[]) {
    this.allowed = allowedNetworks.map((network) => ipaddr.parseCIDR(network));
  }

  /** Why the address is refused, or undefined when a webhook may connect to it. */
  refusal(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
    const parsed = ipaddr.process(address);
    if (this.isAllowed(parsed)) return undefined;
    if (parsed.kind() === 'ipv6') {
      for (const { form, ipv4 } of embeddedIpv4(parsed as ipaddr.IPv6)) {
        if (!this.isAllowed(ipv4) && ipv4.range() !== 'unicast') return `${address} is the ${form} form of ${ipv4.toString()}, a ${ipv4.range()} address`;
      }
    }
    const range = parsed.range();
    if (range === 'unicast') return undefined;
    return `${address} is a ${range} address`;
  }

  /** Why a webhook URL whose host is a literal IP address is refused; host names are judged after DNS resolution. */
  urlRefusal(url: URL): string | undefined {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return ipaddr.isValid(host) ? this.refusal(host) : undefined;
  }

  private isAllowed(address: Address): boolean {
    return this.allowed.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
  }
}
