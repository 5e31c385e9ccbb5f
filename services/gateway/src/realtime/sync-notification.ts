import { documentEventSchema, type Access, type DocumentEvent } from '@platform/contracts';
import { z } from 'zod';

/** What a subscriber of `project:{projectId}:sync` receives: which entity changed, never its content. */
export const syncNotificationSchema = z.object({
  projectId: z.string(),
  /** The type id, or `types` / `applications` for those collections. */
  typeId: z.string(),
  entityId: z.string(),
  revision: z.number().int(),
  kind: documentEventSchema.shape.kind,
  updatedAt: z.number(),
});
export type SyncNotification = z.infer<typeof syncNotificationSchema>;

/**
 * `access-changed`: the subscriber's standing in the project changed (membership, permissions),
 * or the access rules of an entity of `typeId` changed. No entity is named: the client asks
 * `POST .../data/readable` about the ids it holds.
 */
export interface AccessChangedNotification {
  projectId: string;
  typeId?: string;
}

/** The notification as it crosses gateway replicas: with the entity's RLS rules, stripped before delivery. */
export interface RoutedSyncNotification {
  notification: SyncNotification;
  access?: Access;
  /** The change wrote the entity's `access`: subscribers who may no longer read it get `access-changed`. */
  accessChanged?: boolean;
}

function touchesAccess(modifier: Record<string, Record<string, unknown>>): boolean {
  return Object.values(modifier).some((fields) => Object.keys(fields).some((path) => path === 'access' || path.startsWith('access.')));
}

/** The spec's channel name, also the SSE stream's `channel` field. */
export function syncChannel(projectId: string): string {
  return `project:${projectId}:sync`;
}

/** Bus subject of the live broadcast for one project (outside `platform.>`: never stored). */
export function syncBroadcastSubject(projectId: string): string {
  return `live.sync.${projectId}`;
}

export const SYNC_BROADCAST_FILTER = 'live.sync.*';

export function notificationOf(event: DocumentEvent): RoutedSyncNotification {
  const updatedAt = typeof event.entity.updatedAt === 'number' ? event.entity.updatedAt : event.change.timestamp;
  return {
    notification: { projectId: event.projectId, typeId: event.typeId, entityId: event.entityId, revision: event.revision, kind: event.kind, updatedAt },
    ...(event.entity.access ? { access: event.entity.access as Access } : {}),
    // Only an update can take access away: a creation grants it to whoever may read the new entity.
    ...(event.kind === 'updated' && touchesAccess(event.change.modifier) ? { accessChanged: true } : {}),
  };
}
