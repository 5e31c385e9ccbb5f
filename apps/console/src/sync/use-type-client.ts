import { IndexedDBStore, SyncClient, TabCoordinator } from '@platform/sync-client';
import { useEffect, useState } from 'react';

/**
 * A sync client for one type of a project, its copy in IndexedDB (one database per user, project
 * and type, so accounts sharing a browser never see each other's copy). The session cookie rides
 * on every request, so no token is given. Realtime pulls shortly after another client's write.
 * Tabs showing the same type share that copy: one of them syncs, the others follow its changes
 * (Web Locks exist only in secure contexts, https or localhost; elsewhere every tab syncs alone).
 */
export function useTypeClient(userId: string, projectId: string, typeId: string): { client: SyncClient | undefined; error: unknown } {
  const [state, setState] = useState<{ client?: SyncClient; error?: unknown }>({});
  useEffect(() => {
    let closed = false;
    let client: SyncClient | undefined;
    void (async () => {
      try {
        const database = `platform-console:${userId}:${projectId}:${typeId}`;
        const store = await IndexedDBStore.open(database);
        if (closed) return void (await store.close());
        const tabs = 'locks' in navigator ? new TabCoordinator(`platform-sync:${database}`) : undefined;
        client = new SyncClient({ baseUrl: window.location.origin, projectId, collections: [{ typeId, realtime: true }], store, realtimeDebounceMs: 100, ...(tabs ? { tabs } : {}) });
        await client.open();
        if (closed) return;
        setState({ client });
        await client.start();
      } catch (error) {
        if (!closed) setState((current) => ({ ...current, error }));
      }
    })();
    return () => {
      closed = true;
      void client?.close();
    };
  }, [userId, projectId, typeId]);
  return { client: state.client, error: state.error };
}
