import type { LocalDocument, RealtimeStatus, SyncClient, SyncConflict, SyncState } from '@platform/sync-client';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { subscribe, versionOf } from './client-version';

/** Re-renders whenever the client reports a change; answers the change counter to memoise on. */
export function useSyncVersion(client: SyncClient): number {
  const onChange = useCallback((listener: () => void) => subscribe(client, listener), [client]);
  const snapshot = useCallback(() => versionOf(client), [client]);
  return useSyncExternalStore(onChange, snapshot, snapshot);
}

/** The local copy of a collection, kept current by pulls, realtime and local writes. */
export function useCollection(client: SyncClient, typeId: string): LocalDocument[] {
  const version = useSyncVersion(client);
  return useMemo(() => client.list(typeId), [client, typeId, version]);
}

/** One document of the local copy (undefined when absent or deleted). */
export function useDocument(client: SyncClient, typeId: string, id: string): LocalDocument | undefined {
  const version = useSyncVersion(client);
  return useMemo(() => client.get(typeId, id), [client, typeId, id, version]);
}

/** A document's sync state: `synced`, `localChanges` (queued) or `conflict`. */
export function useSyncState(client: SyncClient, typeId: string, id: string): SyncState | undefined {
  useSyncVersion(client);
  return client.state(typeId, id);
}

/** How many documents of the collection wait in the push queue (queued deletes included, which `useCollection` no longer lists) or in conflict. */
export function usePendingCount(client: SyncClient, typeId: string): number {
  const version = useSyncVersion(client);
  return useMemo(() => client.pendingCount(typeId), [client, typeId, version]);
}

/** Every document of the collection in conflict, with what the server said. */
export function useConflicts(client: SyncClient, typeId: string): Array<{ id: string; conflict: SyncConflict }> {
  const version = useSyncVersion(client);
  return useMemo(() => client.conflicts(typeId), [client, typeId, version]);
}

/** Where the realtime link stands: `connecting`, `live`, `polling`, `offline` (the browser has no network) or `stopped`. */
export function useRealtimeStatus(client: SyncClient): RealtimeStatus {
  useSyncVersion(client);
  return client.realtimeStatus;
}
