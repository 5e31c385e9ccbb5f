import { openEventBus, type EventBus } from '@platform/bus';
import type { Logger } from '@platform/kit';
import { openKeyValue, type KeyValue } from '@platform/kv';
import { openDocumentStore, type DocumentStore } from '@platform/storage';
import type { PlatformConfig } from './config';
import { StartupFailure } from './startup-failure';
import { memoryBudgetProbe } from './store-ceiling';

export interface Adapters {
  store: DocumentStore;
  bus: EventBus;
  kv: KeyValue;
}

/** A gateway-only process holds no documents, so it opens no store. */
export type GatewayAdapters = Omit<Adapters, 'store'> & { store?: undefined };

/**
 * Builds each port's adapter once per process: a URL in the environment selects the real backend
 * (MongoDB, NATS JetStream, Redis), otherwise the embedded one serves (documents and key-value data
 * under DATA_DIR, the bus in process). Every hosted service gets these same instances. The embedded
 * ones report their logs' trouble (a failed compaction, a failure that stops writes) to `logger`.
 */
export async function openAdapters(config: PlatformConfig, options: { withStore: true; logger: Logger }): Promise<Adapters>;
export async function openAdapters(config: PlatformConfig, options: { withStore: boolean; logger: Logger }): Promise<Adapters | GatewayAdapters>;
export async function openAdapters(config: PlatformConfig, options: { withStore: boolean; logger: Logger }): Promise<Adapters | GatewayAdapters> {
  const { logger } = options;
  const [store, bus, kv] = await Promise.all([
    options.withStore
      ? namingBackend('MONGO_URL', config.MONGO_URL, openDocumentStore({ mongoUrl: config.MONGO_URL, mongoDatabase: config.MONGO_DATABASE, dataDir: config.DATA_DIR, logger }))
      : undefined,
    namingBackend('NATS_URL', config.NATS_URL, openEventBus({ natsUrl: config.NATS_URL, natsNamespace: config.NATS_NAMESPACE })),
    namingBackend('REDIS_URL', config.REDIS_URL, openKeyValue({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, dataDir: config.DATA_DIR, logger })),
  ]);
  return store ? { store, bus, kv } : { bus, kv };
}

/** A backend chosen by a URL that cannot be reached stops start-up naming the variable; embedded failures pass unchanged. */
async function namingBackend<T>(variable: string, url: string | undefined, opening: Promise<T>): Promise<T> {
  if (url === undefined) return opening;
  try {
    return await opening;
  } catch (error) {
    throw new StartupFailure(`${variable}: cannot connect (${error instanceof Error ? error.message : String(error)}): check the backend is running or change ${variable}`, { cause: error });
  }
}

export async function closeAdapters(adapters: Partial<Adapters>): Promise<void> {
  await Promise.allSettled([adapters.bus?.close(), adapters.kv?.close(), adapters.store?.close()]);
}

/** Health probes for the adapters a process holds; an embedded store with a memory budget also gets one for that. */
export function adapterProbes(adapters: Partial<Adapters>, memoryBudgetMb?: number): Array<{ name: string; kind: string; probe: () => Promise<boolean> }> {
  const probes: Array<{ name: string; kind: string; probe: () => Promise<boolean> }> = [];
  if (adapters.store) probes.push({ name: 'store', kind: adapters.store.kind, probe: () => adapters.store!.ping() });
  if (adapters.store?.kind === 'embedded' && memoryBudgetMb !== undefined) probes.push(memoryBudgetProbe(memoryBudgetMb));
  if (adapters.bus) probes.push({ name: 'bus', kind: adapters.bus.kind, probe: () => adapters.bus!.ping() });
  if (adapters.kv) probes.push({ name: 'kv', kind: adapters.kv.kind, probe: () => adapters.kv!.ping() });
  return probes;
}
