import type { DescribedChange } from '../domain/change-description';
import { entityKeyOf, type ChangeFeedItem, type TrailEntry } from './trail-item';

/** One change of one of the project's own records (its settings, a membership, an action, a domain), as its consumer reads it. */
export interface ProjectRecordChange {
  /** The kind's `entityTypeId` (`project.actions`, ...) and `entityTypeName`. */
  kind: { typeId: string; typeName: string };
  projectId: string;
  recordId: string;
  /** The record's revision after the change; the item id ends in it unless `changeId` names the change. */
  revision: number;
  changeId?: string;
  title: string;
  described: DescribedChange;
  changedBy: string;
  /** The author's name as the item keeps it (membership items keep the id: names are read at every page). */
  changedByName: string;
  timestamp: number;
}

type Details = Pick<ChangeFeedItem, 'permissions' | 'previousPermissions' | 'target' | 'previousTarget' | 'previousTitle' | 'tenantId' | 'previousTenantId' | 'ownerId' | 'previousOwnerId'>;

/** The trail entry of a change of a project record: the same item shape as an entity's change, plus what its kind adds. */
export function projectRecordEntry(change: ProjectRecordChange, details: Details = {}): TrailEntry {
  const entityKey = entityKeyOf(change.kind.typeId, change.recordId);
  return {
    id: `${entityKey}/${change.changeId ?? change.revision}`,
    projectId: change.projectId,
    entityKey,
    revision: change.revision,
    entityId: change.recordId,
    entityTitle: change.title,
    entityTypeId: change.kind.typeId,
    entityTypeName: change.kind.typeName,
    ...change.described,
    userId: change.changedBy,
    userDisplayName: change.changedByName,
    timestamp: change.timestamp,
    ...Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined)),
  };
}
