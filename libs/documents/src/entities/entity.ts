import type { Access, EventSource } from '@platform/contracts';
import type { StoredDocument } from '@platform/storage';

/**
 * What the event of a write made by an action carries (docs/actions.md, Loop guard): how many
 * action writes lead to it, itself included, and the chain it belongs to (the id of the event a
 * person's write started it with), whose writes share one budget. Never stored in history.
 */
export interface ActionCause {
  actionDepth: number;
  actionChain: string;
}

/** A change waiting in a document's outbox: not yet in history or not yet published. */
export interface OutboxEntry extends EventSource, Partial<ActionCause> {
  revision: number;
}

/**
 * A change as stored, in an entity's outbox and in history. MongoDB refuses `$`-prefixed keys
 * inside stored documents, so the modifier is kept as JSON text and decoded on the way out.
 */
export interface StoredChange {
  revision: number;
  userId: string;
  timestamp: number;
  baseRevision: number;
  modifierJson: string;
  /** Only in the outbox: what the event of a write made by an action carries (see ActionCause). */
  actionDepth?: number;
  actionChain?: string;
}

export function storeChange({ modifier, ...rest }: OutboxEntry): StoredChange {
  return { ...rest, modifierJson: JSON.stringify(modifier) };
}

export function loadChange({ modifierJson, revision, userId, timestamp, baseRevision, actionDepth, actionChain }: StoredChange): OutboxEntry {
  return {
    revision,
    userId,
    timestamp,
    baseRevision,
    modifier: JSON.parse(modifierJson) as OutboxEntry['modifier'],
    ...(actionDepth === undefined ? {} : { actionDepth }),
    ...(actionChain === undefined ? {} : { actionChain }),
  };
}

/** An entity as stored: the document's fields plus server-owned ones; `_` fields never leave the service. */
export interface StoredEntity extends StoredDocument {
  revision: number;
  createdAt: number;
  updatedAt: number;
  deletedAt?: number;
  access?: Access;
  _outbox?: StoredChange[];
}

/** Where an entity lives: its project, its type (or `types` / `applications`) and its collection. */
export interface EntityScope {
  projectId: string;
  typeId: string;
  collection: string;
}

/** The entity as clients see it: without internal `_` fields. */
export function publicView(entity: StoredEntity): Record<string, unknown> {
  // Reads already leave the outbox out at the store (READ_PROJECTION): most entities need no copy.
  if (!Object.keys(entity).some((key) => key.startsWith('_'))) return entity;
  return Object.fromEntries(Object.entries(entity).filter(([key]) => !key.startsWith('_')));
}

/**
 * A deleted entity as pulls and lists answer it: what a client needs to remove its copy and no
 * more. Its content stays in the store (GET of the entity, behind read RLS, still shows it) but is
 * not sent again to every replica. `access` stays, as on live entities, for the same readers.
 */
export function tombstoneView(entity: StoredEntity): Tombstone {
  const { id, revision, createdAt, updatedAt, deletedAt, access } = entity;
  return { id, revision, createdAt, updatedAt, deletedAt: deletedAt as number, ...(access === undefined ? {} : { access }) };
}

export interface Tombstone {
  id: string;
  revision: number;
  createdAt: number;
  updatedAt: number;
  deletedAt: number;
  access?: Access;
}

/** Excludes history-related internals at the store, so reads never carry the outbox. */
export const READ_PROJECTION = { _outbox: 0 } as const;
