import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import type { NetworkPolicy } from '../domain/network-policy';

/** Raised when a webhook host resolves to an address the network policy refuses. */
export class AddressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici connection pool whose DNS lookup refuses a host when any of its addresses is refused
 * by the policy. The check runs at connect time on the very addresses the socket uses, so a name
 * that resolves differently the second time (DNS rebinding) cannot slip through. Literal IP hosts
 * skip DNS and are checked by the caller before the request.
 */
export function createGuardedAgent(policy: NetworkPolicy): Agent {
  return new Agent({
    connect: {
      lookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
        lookup(hostname, { ...options, all: true }, (error, addresses) => {
          if (error) return callback(error, []);
          const refused = addresses.map((entry) => policy.refusal(entry.address)).find((reason) => reason !== undefined);
          if (refused) return callback(new AddressRefusedError(`${hostname} resolves to ${refused}`), []);
          if (options.all) return callback(null, addresses);
          const first = addresses[0] as LookupAddress;
          return callback(null, first.address, first.family);
        });
      },
    },
  } as ConstructorParameters<typeof Agent>[0]);
}
