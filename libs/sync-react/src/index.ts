export { useCollection, useConflicts, useDocument, usePendingCount, useRealtimeStatus, useSyncState, useSyncVersion } from './hooks';
