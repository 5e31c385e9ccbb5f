import type { PullResult, RealtimeStatus, SyncConflict, SyncState } from './types.js';

/** Everything a SyncClient reports to the application. */
export interface SyncEvents {
  /** An entity's sync state changed. */
  state: { typeId: string; id: string; state: SyncState };
  /** A pull applied remote changes to the local copy. */
  change: PullResult;
  /** A 409 (or a refusal) was stored as a conflict. */
  conflict: { typeId: string; id: string; conflict: SyncConflict };
  /** A collection not opted in to realtime has remote changes waiting (the spec's indicator). */
  changesAvailable: { typeId: string; available: boolean };
  realtime: { status: RealtimeStatus };
  /** A background sync failed in a way that is not retried by itself. */
  error: { error: unknown };
}

type Listener<T> = (event: T) => void;

export class Emitter {
  private readonly listeners = new Map<keyof SyncEvents, Set<Listener<never>>>();

  on<K extends keyof SyncEvents>(name: K, listener: Listener<SyncEvents[K]>): () => void {
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
