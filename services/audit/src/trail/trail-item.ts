import type { Access, ChangeKind, DomainTarget } from '@platform/contracts';
import type { StoredDocument } from '@platform/storage';
import type { ChangeDescription } from '../domain/change-description';
import type { AuthorNames, TrailReader } from './author-names';

/** Where the audit service keeps items and the latest access it knows per entity. */
export const TRAIL_COLLECTION = 'audit-trail';
export const TRAIL_ENTITIES_COLLECTION = 'audit-trail-entities';
/** The deleted accounts whose display name the trail forgot: one record each, by user id. */
export const FORGOTTEN_AUTHORS_COLLECTION = 'audit-forgotten-authors';

// The kinds of the project's own records, as their items name them (`entityTypeId`,
// `entityTypeName`). A dot cannot occur in a type id, so no type's items can be taken for these.

/** The project itself: its settings. */
export const PROJECT_SETTINGS = { typeId: 'project.settings', typeName: 'Project' } as const;
/** A membership: the entity is the member, `entityId` its user id. */
export const MEMBERS = { typeId: 'project.members', typeName: 'Member' } as const;
/** A saved action. */
export const ACTIONS = { typeId: 'project.actions', typeName: 'Action' } as const;
/** A domain: its title is the hostname. */
export const DOMAINS = { typeId: 'project.domains', typeName: 'Domain' } as const;

/** The items of the project's own records (its settings, memberships, actions, domains), which no entity history holds: a rebuild keeps them. */
export const PROJECT_RECORD_TYPE_IDS: readonly string[] = [PROJECT_SETTINGS, MEMBERS, ACTIONS, DOMAINS].map((kind) => kind.typeId);

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
  /** Membership changes only: the member's permissions after the change, and before it (absent for a member added). */
  permissions?: string[];
  previousPermissions?: string[];
  /** Domain changes only: where the domain points after the change, and before an assignment. */
  target?: DomainTarget;
  previousTarget?: DomainTarget;
  /** A domain's hostname or the project's name before it was changed. */
  previousTitle?: string;
  /** A move of the project: the tenant it joined and the one it left. */
  tenantId?: string;
  previousTenantId?: string;
  /** A change of the project's owner: the user who owns it now and the one before. */
  ownerId?: string;
  previousOwnerId?: string;
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
  /**
   * Set on the items of an entity before its erasure by visitor retention: their title is the
   * entity id, and no history replays them any more, so a rebuild keeps them. Never shown.
   */
  erased?: true;
}

/** The latest access the trail knows for one entity (id is the entity key). */
export interface TrailEntityRecord extends StoredDocument {
  projectId: string;
  /** Revision of the newest entity snapshot seen. */
  revision: number;
  access: Access;
  /** Revision of the snapshot where `access` last changed. */
  accessRevision: number;
  /**
   * Revision of the entity's latest erasure by visitor retention (RETENTION_USER_ID): its items
   * before it carry nothing of its content, whenever they are written.
   */
  erasedRevision?: number;
}

export function entityKeyOf(collection: string, entityId: string): string {
  return `${collection}/${entityId}`;
}

/**
 * The item as a reader gets it, given the display names the reader may see (`AuthorNames`): an
 * author's name the reader may not see is answered as the user id. A membership item holds no
 * names: its title is the member's name as it is now and its author's the author's, or their ids.
 */
export function publicItem(item: StoredTrailItem, visibleNames: ReadonlyMap<string, string>): ChangeFeedItem {
  const { entityId, revision, entityTitle, entityTypeId, entityTypeName, changeDescription, userId, userDisplayName, timestamp } = item;
  const membership = entityTypeId === MEMBERS.typeId;
  return {
    entityId,
    revision,
    entityTitle: membership ? (visibleNames.get(entityId) ?? entityId) : entityTitle,
    entityTypeId,
    entityTypeName,
    changeDescription,
    userId,
    userDisplayName: membership ? (visibleNames.get(userId) ?? userId) : visibleNames.has(userId) ? userDisplayName : userId,
    timestamp,
    ...detailsOf(item),
  };
}

const DETAIL_FIELDS = ['permissions', 'previousPermissions', 'target', 'previousTarget', 'previousTitle', 'tenantId', 'previousTenantId', 'ownerId', 'previousOwnerId'] as const;

/** The fields a kind of project record adds to its items, those the item has. */
function detailsOf(item: StoredTrailItem): Pick<ChangeFeedItem, (typeof DETAIL_FIELDS)[number]> {
  return Object.fromEntries(DETAIL_FIELDS.filter((field) => item[field] !== undefined).map((field) => [field, item[field]]));
}

/** The items as the reader may see them: one read of the names their authors and members show. */
export async function shownItems(items: readonly StoredTrailItem[], reader: TrailReader, names: AuthorNames): Promise<ChangeFeedItem[]> {
  const members = items.filter((item) => item.entityTypeId === MEMBERS.typeId).map((item) => item.entityId);
  const visible = await names.visibleTo(reader, [...items.map((item) => item.userId), ...members]);
  return items.map((item) => publicItem(item, visible));
}
