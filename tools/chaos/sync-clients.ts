import { MemoryStore, SyncClient } from '../../libs/sync-client/src/index';
import type { Fixture } from './seed';
import type { StoredDocument } from './server-state';
import type { Traffic } from './traffic';

export interface SyncClients {
  /** Stops the writing client's inserts (the load is over). */
  stopWriting(): void;
  /** Syncs every client until none holds a change the server has not accepted; the problems left. */
  flush(timeoutMs: number): Promise<string[]>;
  /** Each client's local copy compared with the server's documents: the differences found. */
  differences(server: ReadonlyMap<string, StoredDocument>, timeoutMs: number): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Two sync clients that live through the faults: one on the realtime channel that also inserts a
 * note every few seconds through its offline queue, one that only polls. Their requests are
 * counted in the traffic like the load generator's.
 */
export async function startSyncClients(fixture: Fixture, traffic: Traffic, options: { insertEveryMs: number }): Promise<SyncClients> {
  const common = {
    baseUrl: fixture.owner.baseUrl,
    projectId: fixture.projectId,
    token: fixture.owner.token,
    collections: [{ typeId: fixture.typeId, realtime: true }],
    fetch: traffic.countingFetch(),
    backoff: { initialMs: 250, maxMs: 3_000 },
    pollIntervalMs: 2_000,
    heartbeatMs: 5_000,
  };
  const clients = [
    { name: 'realtime client', client: new SyncClient({ ...common, store: new MemoryStore() }) },
    { name: 'polling client', client: new SyncClient({ ...common, store: new MemoryStore(), realtime: false }) },
  ];
  for (const { client } of clients) await client.start();
  const writer = clients[0]!.client;
  let inserted = 0;
  const inserts = setInterval(() => {
    inserted += 1;
    void writer.insertEntity(fixture.typeId, { title: `Offline note ${inserted}`, n: 0 });
  }, options.insertEveryMs);

  /** Syncs each client, then asks `check` what is wrong with it; repeats until nothing is or time is up. */
  const until = async (timeoutMs: number, check: (name: string, client: SyncClient) => string[]) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found: string[] = [];
      for (const { name, client } of clients) {
        try {
          await client.sync();
          found.push(...check(name, client));
        } catch (error) {
          found.push(`${name}: sync failed: ${(error as Error).message}`);
        }
      }
      if (found.length === 0 || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  };

  return {
    stopWriting: () => clearInterval(inserts),
    flush: (timeoutMs) =>
      until(timeoutMs, (name, client) =>
        client
          .list(fixture.typeId)
          .filter((document) => client.state(fixture.typeId, document.id) !== 'synced')
          .map((document) => `${name}: ${document.id} stays ${client.state(fixture.typeId, document.id)}`),
      ),
    differences: (server, timeoutMs) => until(timeoutMs, (name, client) => compare(name, client, fixture.typeId, server)),
    async close() {
      clearInterval(inserts);
      await Promise.all(clients.map(({ client }) => client.close()));
    },
  };
}

function compare(name: string, client: SyncClient, typeId: string, server: ReadonlyMap<string, StoredDocument>): string[] {
  const found: string[] = [];
  const local = new Map(client.list(typeId).map((document) => [document.id, document]));
  for (const [id, stored] of server) {
    if (stored.deletedAt) continue;
    const copy = local.get(id);
    if (!copy) found.push(`${name}: misses ${id}`);
    else if (copy.revision !== stored.revision || copy.n !== stored.n || copy.title !== stored.title) {
      found.push(`${name}: ${id} is revision ${copy.revision} n=${String(copy.n)}, the server has revision ${stored.revision} n=${String(stored.n)}`);
    } else if (client.state(typeId, id) !== 'synced') found.push(`${name}: ${id} is ${client.state(typeId, id)}`);
  }
  for (const id of local.keys()) if (!server.has(id)) found.push(`${name}: holds ${id}, which the server does not have`);
  return found;
}
