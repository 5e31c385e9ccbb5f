import type { Access, EventSource } from '@platform/contracts';
import type { StoredDocument } from '@platform/storage';

/** A change waiting in a document's outbox: not yet in history or not yet published. */
export interface OutboxEntry extends EventSource {
  revision: number;
}

/** An entity as stored: the document's fields plus server-owned ones; `_` fields never leave the service. */
export interface StoredEntity extends StoredDocument {
  revision: number;
  createdAt: number;
  updatedAt: number;
  deletedAt?: number;
  access?: Access;
  _outbox?: OutboxEntry[];
}

/** Where an entity lives: its project, its type (or `types` / `applications`) and its collection. */
export interface EntityScope {
  projectId: string;
  typeId: string;
  collection: string;
}

/** The entity as clients see it: without internal `_` fields. */
export function publicView(entity: StoredEntity): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entity).filter(([key]) => !key.startsWith('_')));
}

/** Excludes history-related internals at the store, so reads never carry the outbox. */
export const READ_PROJECTION = { _outbox: 0 } as const;
