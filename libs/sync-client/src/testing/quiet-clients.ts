import type { SyncClient, SyncClientOptions } from '../sync-client.js';

/** Nothing runs by itself within a test: no realtime, polls and heartbeats a minute apart, retries 20 ms apart growing to 100 ms. */
const QUIET: Partial<SyncClientOptions> = { backoff: { initialMs: 20, maxMs: 100 }, pollIntervalMs: 60_000, heartbeatMs: 60_000, realtime: false };

/**
 * Sync clients a test drives by hand (sync(), push(), pull()). `open()` takes what differs from
 * `defaults()`, which is read at each call so it can name a server started later; `closeAll()`
 * closes every client opened since. The client class is passed in so that this module loads no
 * client code: tests that stub the browser's globals import the client after.
 */
export function quietClients(Client: typeof SyncClient, defaults: () => Pick<SyncClientOptions, 'baseUrl' | 'projectId'> & Partial<SyncClientOptions>) {
  const opened: SyncClient[] = [];

  function open(options: Partial<SyncClientOptions> & Pick<SyncClientOptions, 'collections'>): SyncClient {
    const client = new Client({ ...QUIET, ...defaults(), ...options });
    opened.push(client);
    return client;
  }

  async function closeAll(): Promise<void> {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  }

  return { open, closeAll };
}
