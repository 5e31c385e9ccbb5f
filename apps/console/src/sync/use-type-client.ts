import { IndexedDBStore, SyncClient } from '@platform/sync-client';
import { useEffect, useState } from 'react';

/**
 * A sync client for one type of a project, its copy in IndexedDB (one database per user, project
 * and type, so accounts sharing a browser never see each other's copy). The session cookie rides
 * on every request, so no token is given. Realtime pulls shortly after another client's write.
 */
export function useTypeClient(userId: string, projectId: string, typeId: string): { client: SyncClient | undefined; error: unknown } {
  const [state, setState] = useState<{ client?: SyncClient; error?: unknown }>({});
  useEffect(() => {
    let closed = false;
    let client: SyncClient | undefined;
    void (async () => {
      try {
        const store = await IndexedDBStore.open(`platform-console:${userId}:${projectId}:${typeId}`);
        if (closed) return void (await store.close());
        client = new SyncClient({ baseUrl: window.location.origin, projectId, collections: [{ typeId, realtime: true }], store, realtimeDebounceMs: 100 });
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
