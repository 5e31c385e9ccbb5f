import type { SyncClient } from '../sync-client.js';
import type { FlakyNetwork } from './flaky-network.js';

export interface Peer {
  network: FlakyNetwork;
  sync: SyncClient;
}

/**
 * Peers insert, update and remove documents of one collection at random, drop and regain their
 * network, and now and then resolve their conflicts (Accept Theirs or Keep Mine at random) and
 * sync. Finally every peer goes online and settles a few rounds. Deterministic for a seed.
 * Answers how many conflicts the peers met; the caller compares every copy with the server.
 */
export async function runRandomizedSession(
  peers: Peer[],
  typeId: string,
  options: {
    operations: number;
    seed: number;
    /** Pause between the final settle rounds: on MongoDB a write becomes pullable about 1 s after it is stamped. */
    settleRoundPauseMs?: number;
  },
): Promise<{ conflicts: number }> {
  let seed = options.seed;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  let conflicts = 0;
  for (const peer of peers) peer.sync.on('conflict', () => (conflicts += 1));
  const settle = async (peer: Peer) => {
    const notes = peer.sync.collection(typeId);
    for (const { id } of notes.conflicts()) await (random() < 0.5 ? notes.acceptTheirs(id) : notes.keepMine(id));
    await peer.sync.sync().catch(() => undefined);
  };
  for (let operation = 0; operation < options.operations; operation += 1) {
    const peer = pick(peers);
    const notes = peer.sync.collection(typeId);
    const visible = notes.list();
    const roll = random();
    if (roll < 0.1) peer.network.online = !peer.network.online;
    else if (roll < 0.3 || visible.length === 0) await notes.insert({ title: `op ${operation}`, n: operation });
    else if (roll < 0.8) await notes.update(pick(visible).id, random() < 0.5 ? { title: `op ${operation}` } : { n: operation, [`f${operation % 3}`]: operation });
    else if (roll < 0.87) await notes.remove(pick(visible).id);
    else await settle(peer);
  }
  for (const peer of peers) peer.network.online = true;
  for (let round = 0; round < 6; round += 1) {
    if (options.settleRoundPauseMs) await new Promise((resolve) => setTimeout(resolve, options.settleRoundPauseMs));
    for (const peer of peers) await settle(peer);
  }
  return { conflicts };
}
