export { SyncClient, SyncCollection, SyncError, type CollectionOptions, type MergePolicy, type SyncClientOptions } from './sync-client.js';
export { MemoryStore, type LocalStore } from './local-store.js';
export { IndexedDBStore, type IndexedDBEnvironment } from './indexeddb-store.js';
export { TabCoordinator, type TabChannel, type TabCoordinatorOptions, type TabLocks, type TabRole, type TabStoreChange } from './tab-coordinator.js';
export { NetworkError, UnauthorizedError } from './http.js';
export { OfflineError } from './browser-network.js';
export { refusedField, type RefusalBody, type RefusedField } from './refusals.js';
export { Backoff, systemTimers, type BackoffOptions, type Timers } from './timers.js';
export type { SyncEvents } from './emitter.js';
export type { LocalDocument } from './records.js';
export type {
  AccessChangedNotification,
  ChangeEvent,
  ChangeReason,
  EntityRecord,
  FieldChoice,
  FieldConflict,
  LocalChange,
  PullResult,
  RealtimeStatus,
  RefusedRule,
  SyncConflict,
  SyncDocument,
  SyncNotification,
  SyncState,
  SyncType,
  SyncTypeChange,
  TabChange,
} from './types.js';
