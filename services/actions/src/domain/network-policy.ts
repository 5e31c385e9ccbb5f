import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may reach. Only public unicast addresses are open; private,
 * loopback, link-local, unique-local, carrier-grade NAT, multicast, reserved and the other
 * special ranges are refused unless a configured CIDR range allows them. IPv4-mapped IPv6
 * addresses are judged as the IPv4 address they carry.
 */
export class NetworkPolicy {
  private readonly allowed: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(allowedNetworks: readonly string[]) {
    this.allowed = allowedNetworks.map((network) => ipaddr.parseCIDR(network));
  }

  /** Why the address is refused, or undefined when a webhook may connect to it. */
  refusal(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
    const parsed = ipaddr.process(address);
    if (this.allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) return undefined;
    const range = parsed.range();
    if (range === 'unicast') return undefined;
    return `${address} is a ${range} address`;
  }
}
