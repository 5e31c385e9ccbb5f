/** A document as the server answers it (the spec's Document without `changes`). */
export interface SyncDocument {
  id: string;
  revision: number;
  createdAt: number;
  updatedAt: number;
  /** Present on soft-deleted entities. */
  deletedAt?: number;
  [field: string]: unknown;
}

/** The spec's client-derived entity sync state. */
export type SyncState = 'synced' | 'localChanges' | 'conflict';

/** The spec's Type `syncType`: `localOnly` entities never leave the client. */
export type SyncType = 'remote' | 'localOnly';

/** One path of a 409's `details.fields`: its value at the base, on the server now, and as mine. */
export interface FieldConflict {
  path: string;
  base?: unknown;
  theirs?: unknown;
  mine?: unknown;
  /** A change on the server since the base touched this path (a true field-level conflict). */
  serverTouched: boolean;
}

/** The JSON Schema keyword a refused value failed and that keyword's parameters (`maxLength`, `{ limit: 40 }`). */
export interface RefusedRule {
  keyword: string;
  params: Record<string, unknown>;
}

export interface SyncConflict {
  /**
   * `revision`: the server answered 409 (someone changed it since the base revision).
   * `deletedOnServer`: the entity was deleted on the server while changed here (or, for an insert, its id is a deleted entity's).
   * `rejected`: the server refused the change for good (validation, permission); the error says why.
   */
  reason: 'revision' | 'deletedOnServer' | 'rejected';
  /** The server's version when the conflict was stored (from the 409's `details.current`). */
  current?: SyncDocument;
  baseRevision?: number;
  currentRevision?: number;
  fields: FieldConflict[];
  /**
   * The server's refusal; `field` is the document field it names, when it names one (`title`,
   * `address.city`), and `fieldMessage` what it says of that field alone (`must be integer`, where
   * `message` reads `Invalid priority: must be integer`), when it says it; `rule` the JSON Schema
   * keyword the value failed and its parameters (`{ keyword: 'maximum', params: { comparison: '<=', limit: 5 } }`),
   * for a message in the application's own words.
   */
  error?: { status: number; code?: string; message: string; field?: string; fieldMessage?: string; rule?: RefusedRule };
  /** When the conflict was stored (client clock, ms). */
  at: number;
}

/** Per-field choice in `resolveFields`. */
export type FieldChoice = 'mine' | 'theirs';

/**
 * What the client stores per entity. `server` is the base the local edits apply to; `local` is what
 * the application sees; `touched` names the top-level fields changed locally since the base.
 */
export interface EntityRecord {
  id: string;
  server?: SyncDocument;
  local?: Record<string, unknown>;
  /** Deleted locally, not yet confirmed by the server. */
  deleted: boolean;
  touched: string[];
  /** Bumped by every local change, so a push knows whether edits arrived while it was in flight. */
  seq: number;
  /** Created or changed while the type was `localOnly`: never sent, dropped when it turns `remote`. */
  localOnly?: boolean;
  conflict?: SyncConflict;
  /** A newer server version seen by a pull while local changes were pending. */
  newer?: SyncDocument;
  /**
   * The fields of each insert of this entity sent while it was not yet confirmed (a POST whose
   * answer was lost, then edited): a retry that meets `DATA_DUPLICATE_ID` takes the stored entity
   * as its own only when the entity's creation holds one of these (or the current local fields).
   */
  sentInserts?: Array<Record<string, unknown>>;
}

/**
 * Why a `change` event removed or added entities: a pull, a check that found access lost, or an
 * automatic merge that took the server's changes to other fields under local edits.
 */
export type ChangeReason = 'pull' | 'accessLost' | 'merge';

/** What one pull found, classified from `revision` and `deletedAt` (spec, Documents rule 1). */
export interface PullResult {
  typeId: string;
  added: SyncDocument[];
  modified: SyncDocument[];
  /** Tombstones: `id`, `revision`, timestamps, `deletedAt` (and `access`), never the deleted content. */
  removed: SyncDocument[];
  /** `accessLost`: the `removed` entities are still on the server but this caller may no longer read them. */
  reason: ChangeReason;
  /** Changes that came from the server (a local write's `change` says `local`). */
  source: 'remote';
}

/** A local write (insert, update, remove) as the `change` event reports it, before any push. */
export interface LocalChange {
  typeId: string;
  added: Array<{ id: string } & Record<string, unknown>>;
  modified: Array<{ id: string } & Record<string, unknown>>;
  /** The entity as it was before it was removed here. */
  removed: Array<{ id: string } & Record<string, unknown>>;
  reason: 'write';
  source: 'local';
}

/**
 * Another tab sharing the store (see `TabCoordinator`) changed it: its own write, or what its
 * pull or push brought. The documents are as this client now shows them.
 */
export interface TabChange {
  typeId: string;
  added: Array<{ id: string } & Record<string, unknown>>;
  modified: Array<{ id: string } & Record<string, unknown>>;
  /** The entity as this client showed it before the other tab removed it. */
  removed: Array<{ id: string } & Record<string, unknown>>;
  reason: 'tab';
  source: 'tab';
}

/**
 * The type turned `remote` again (`setSyncType`, or the server's type record read on a heartbeat):
 * what was written here while it was `localOnly` is dropped, as the spec says, and the documents
 * show the server's version again, or go (those that never reached the server).
 */
export interface SyncTypeChange {
  typeId: string;
  /** Deleted here while `localOnly`, shown again: the server's version. */
  added: Array<{ id: string } & Record<string, unknown>>;
  /** As this client now shows them: the server's version. */
  modified: Array<{ id: string } & Record<string, unknown>>;
  /** As this client showed them before: created here while `localOnly`, never on the server. */
  removed: Array<{ id: string } & Record<string, unknown>>;
  reason: 'syncType';
  source: 'local';
}

/** What the `change` event carries: changes from the server, a local write, another tab's change, or local changes dropped when a type turned `remote`. */
export type ChangeEvent = PullResult | LocalChange | TabChange | SyncTypeChange;

/**
 * Where the realtime link stands: `live` (notifications), `polling` (503 or link down), `offline`
 * (the browser says it has no network: nothing is tried until its `online` event), `stopped`.
 */
export type RealtimeStatus = 'connecting' | 'live' | 'polling' | 'offline' | 'stopped';

/** A notification of `project:{projectId}:sync` as the gateway sends it. */
export interface SyncNotification {
  projectId: string;
  typeId: string;
  entityId: string;
  revision: number;
  kind: 'created' | 'updated' | 'deleted';
  updatedAt: number;
}

/**
 * The `access-changed` event of the sync stream: the caller's standing in the project, or the
 * access rules of some entity of `typeId`, changed. It names no entity: the client asks
 * `POST .../data/readable` which of its own ids it may still read.
 */
export interface AccessChangedNotification {
  projectId: string;
  typeId?: string;
}
