import { documentEventId, entityTitle, type EventSource } from '@platform/contracts';
import { describeChange } from '../domain/change-description';
import type { Names } from './names';
import { entityKeyOf, type TrailEntry } from './trail-item';

/** One change of one entity with the entity as it was right after it. */
export interface ChangeOfEntity {
  projectId: string;
  typeId: string;
  collection: string;
  entityId: string;
  revision: number;
  change: EventSource;
  /** The entity's fields after this change (at this revision, not later). */
  state: Record<string, unknown>;
}

/** Builds the trail entry of one change: the one function both the consumer and the rebuild use. */
export async function trailEntryFor(source: ChangeOfEntity, names: Names): Promise<TrailEntry> {
  const [userDisplayName, entityTypeName] = await Promise.all([
    names.userDisplayName(source.change.userId),
    names.typeNameAt(source.projectId, source.typeId, source.change.timestamp),
  ]);
  return {
    id: documentEventId(source.collection, source.entityId, source.revision),
    projectId: source.projectId,
    entityKey: entityKeyOf(source.collection, source.entityId),
    revision: source.revision,
    entityId: source.entityId,
    entityTitle: entityTitle(source.typeId, source.state, source.entityId),
    entityTypeId: source.typeId,
    entityTypeName,
    ...describeChange(source.typeId, source.revision, source.change.modifier),
    userId: source.change.userId,
    userDisplayName,
    timestamp: source.change.timestamp,
  };
}
