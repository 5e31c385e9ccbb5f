import type { SyncConflict } from '@platform/sync-client';

/**
 * What a document's sync state reads, the same in the grid and on the document: `pending` for
 * queued writes, `refused` for a write the server refused (a conflict whose reason is a
 * rejection), otherwise the SDK's state.
 */
export function syncLabel(state: string, conflict: SyncConflict | undefined): string {
  if (state === 'localChanges') return 'pending';
  return state === 'conflict' && conflict?.reason === 'rejected' ? 'refused' : state;
}
