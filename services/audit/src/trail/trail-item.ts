import type { Access, ChangeKind } from '@platform/contracts';
import type { StoredDocument } from '@platform/storage';
import type { ChangeDescription } from '../domain/change-description';

/** Where the audit service keeps items and the latest access it knows per entity. */
export const TRAIL_COLLECTION = 'audit-trail';
export const TRAIL_ENTITIES_COLLECTION = 'audit-trail-entities';

/** The spec's ChangeFeedItem: what callers see, plus the revision it describes (links to that point of the entity's history). */
export interface ChangeFeedItem {
  entityId: string;
  /** The entity's revision right after the change (0 for its creation). */
  revision: number;
  entityTitle: string;
  entityTypeId: string;
  entityTypeName: string;
  changeDescription: ChangeDescription;
  userId: string;
  userDisplayName: string;
  timestamp: number;
}

/** An item as built from one change, before the entity's current access is attached. */
export interface TrailEntry extends ChangeFeedItem {
  /** The event's message id `<collection>/<entityId>/<revision>`: one item per change, ever. */
  id: string;
  projectId: string;
  /** `<collection>/<entityId>`: all items of one entity. */
  entityKey: string;
  changeType: ChangeKind;
}

/**
 * An item as stored: the entry plus the entity's current access (what read RLS checks now) and
 * the entity revision at which that access took effect, so updates only ever move it forward.
 */
export interface StoredTrailItem extends TrailEntry, StoredDocument {
  access: Access;
  accessRevision: number;
}

/** The latest access the trail knows for one entity (id is the entity key). */
export interface TrailEntityRecord extends StoredDocument {
  projectId: string;
  /** Revision of the newest entity snapshot seen. */
  revision: number;
  access: Access;
  /** Revision of the snapshot where `access` last changed. */
  accessRevision: number;
}

export function entityKeyOf(collection: string, entityId: string): string {
  return `${collection}/${entityId}`;
}

/** The item as a reader gets it; a display name the reader may not see is answered as the user id. */
export function publicItem(item: StoredTrailItem, nameVisible: boolean): ChangeFeedItem {
  const { entityId, revision, entityTitle, entityTypeId, entityTypeName, changeDescription, userId, userDisplayName, timestamp } = item;
  return { entityId, revision, entityTitle, entityTypeId, entityTypeName, changeDescription, userId, userDisplayName: nameVisible ? userDisplayName : userId, timestamp };
}
