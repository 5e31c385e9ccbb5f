import { createInProcessBus } from './in-process';
import { createNatsBus } from './nats';
import type { EventBus } from './port';

/** JetStream when a URL is configured, otherwise the in-process bus. */
export async function openEventBus(options: { natsUrl?: string; natsNamespace?: string | undefined; name?: string }): Promise<EventBus> {
  if (options.natsUrl) return createNatsBus({ url: options.natsUrl, ...(options.natsNamespace ? { namespace: options.natsNamespace } : {}), ...(options.name ? { name: options.name } : {}) });
  return createInProcessBus();
}
