export { SyncClient, SyncCollection, SyncError, type CollectionOptions, type SyncClientOptions } from './sync-client';
export { MemoryStore, type LocalStore } from './local-store';
export { NetworkError } from './http';
export { Backoff, systemTimers, type BackoffOptions, type Timers } from './timers';
export type { SyncEvents } from './emitter';
export type { LocalDocument } from './records';
export type {
  EntityRecord,
  FieldChoice,
  FieldConflict,
  PullResult,
  RealtimeStatus,
  SyncConflict,
  SyncDocument,
  SyncNotification,
  SyncState,
  SyncType,
} from './types';
