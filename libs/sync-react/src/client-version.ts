import type { SyncClient, SyncEvents } from '@platform/sync-client';

/** The events after which what a client answers (`list`, `get`, `state`, `conflicts`) may differ. */
const CHANGING_EVENTS: Array<keyof SyncEvents> = ['state', 'change', 'conflict', 'changesAvailable', 'realtime', 'projectLost'];

interface Tracker {
  version: number;
  listeners: Set<() => void>;
  /** Listeners are told once the events of the current task are done. */
  notifying: boolean;
}

const trackers = new WeakMap<SyncClient, Tracker>();

/**
 * One counter per client, bumped by every event that can change its answers: React reads the
 * counter as the external store's snapshot, so every hook re-reads the client after any change.
 * A pull of 10,000 documents emits 10,000 `state` events in one go: the listeners hear of them
 * once, after the last, instead of making React schedule an update per event.
 */
function tracker(client: SyncClient): Tracker {
  let found = trackers.get(client);
  if (!found) {
    const created: Tracker = { version: 0, listeners: new Set(), notifying: false };
    const notify = () => {
      created.notifying = false;
      for (const listener of created.listeners) listener();
    };
    for (const event of CHANGING_EVENTS) {
      client.on(event, () => {
        created.version += 1;
        if (created.notifying) return;
        created.notifying = true;
        queueMicrotask(notify);
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
