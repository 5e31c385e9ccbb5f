import type { ChangeEvent, RealtimeStatus, SyncConflict, SyncState } from './types.js';

/** Everything a SyncClient reports to the application. */
export interface SyncEvents {
  /** An entity's sync state changed. */
  state: { typeId: string; id: string; state: SyncState };
  /** Remote changes reached the local copy (a pull, a merge, lost access; `source: 'remote'`), a local write changed it (`source: 'local'`), or another tab sharing the store did (`source: 'tab'`). */
  change: ChangeEvent;
  /** A 409 (or a refusal) was stored as a conflict. */
  conflict: { typeId: string; id: string; conflict: SyncConflict };
  /** A collection not opted in to realtime has remote changes waiting (the spec's indicator). */
  changesAvailable: { typeId: string; available: boolean };
  realtime: { status: RealtimeStatus };
  /** A sync failed in a way that is not retried by itself; `typeId` when it is one collection's (the others go on). */
  error: { error: unknown; typeId?: string };
  /**
   * The server refused the session (401), or the account must confirm its email address first
   * (`code: 'GATEWAY_EMAIL_UNCONFIRMED'`): push and pull pause, the queue stays as it is.
   */
  unauthorized: { projectId: string; code?: string };
  /** A token works again after `unauthorized`: syncing resumed. */
  authorized: { projectId: string };
  /** The project answered 404 (removed from it, or deleted): syncing it stopped; `purged` when the local copy was dropped. */
  projectLost: { projectId: string; purged: boolean };
}

type Listener<T> = (event: T) => void;

export class Emitter {
  private readonly listeners = new Map<keyof SyncEvents, Set<Listener<never>>>();
  private muted = false;

  /** Drops every listener for good: a closed client reports nothing more. */
  mute(): void {
    this.muted = true;
    this.listeners.clear();
  }

  on<K extends keyof SyncEvents>(name: K, listener: Listener<SyncEvents[K]>): () => void {
    if (this.muted) return () => undefined;
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends keyof SyncEvents>(name: K, event: SyncEvents[K]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        (listener as Listener<SyncEvents[K]>)(event);
      } catch {
        // An application listener that throws must not break the sync loop.
      }
    }
  }
}
