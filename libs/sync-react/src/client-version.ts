import type { SyncClient, SyncEvents } from '@platform/sync-client';

/** The events after which what a client answers (`list`, `get`, `state`, `conflicts`) may differ. */
const CHANGING_EVENTS: Array<keyof SyncEvents> = ['state', 'change', 'conflict', 'changesAvailable', 'realtime', 'projectLost'];

interface Tracker {
  version: number;
  listeners: Set<() => void>;
}

const trackers = new WeakMap<SyncClient, Tracker>();

/**
 * One counter per client, bumped by every event that can change its answers: React reads the
 * counter as the external store's snapshot, so every hook re-reads the client after any change.
 */
function tracker(client: SyncClient): Tracker {
  let found = trackers.get(client);
  if (!found) {
    const created: Tracker = { version: 0, listeners: new Set() };
    for (const event of CHANGING_EVENTS) {
      client.on(event, () => {
        created.version += 1;
        for (const listener of created.listeners) listener();
      });
    }
    trackers.set(client, (found = created));
  }
  return found;
}

export function subscribe(client: SyncClient, listener: () => void): () => void {
  const { listeners } = tracker(client);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const versionOf = (client: SyncClient): number => tracker(client).version;
