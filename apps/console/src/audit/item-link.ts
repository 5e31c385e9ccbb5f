import { documentPath, projectPath, typePath } from '../paths';

/** What an audit item names: its entity, where the entity lives, and the revision the change made. */
export interface TrailItemTarget {
  entityId: string;
  entityTypeId: string;
  revision: number;
  /** A domain change's application, whose screen lists its domains. */
  target?: { applicationId: string };
}

/** The trail's `entityTypeId` for changes to the type records and to applications (not document types). */
const TYPES_COLLECTION = 'types';
const APPLICATIONS_COLLECTION = 'applications';
/** The trail's `entityTypeId` for membership changes (the entity is the member). */
export const MEMBERS_TYPE_ID = 'project.members';
/** The trail's `entityTypeId` for saved actions. */
export const ACTIONS_TYPE_ID = 'project.actions';
/** The trail's `entityTypeId` for domain changes. */
export const DOMAINS_TYPE_ID = 'project.domains';
/** The trail's `entityTypeId` for changes of the project's own settings. */
export const PROJECT_SETTINGS_TYPE_ID = 'project.settings';

/**
 * Where an item leads in the console: a document's history with the item's revision selected
 * (`?revision=N`, read by the document screen), a type's documents, the applications, the
 * project's settings, its members, an action's editor, or a domain's application (where its domains are managed).
 */
export function itemLink(projectId: string, item: TrailItemTarget): string {
  if (item.entityTypeId === PROJECT_SETTINGS_TYPE_ID) return `${projectPath(projectId)}/settings`;
  if (item.entityTypeId === MEMBERS_TYPE_ID) return `${projectPath(projectId)}/members`;
  if (item.entityTypeId === ACTIONS_TYPE_ID) return `${projectPath(projectId)}/actions/${encodeURIComponent(item.entityId)}`;
  if (item.entityTypeId === DOMAINS_TYPE_ID) return `${projectPath(projectId)}/applications${item.target ? `/${encodeURIComponent(item.target.applicationId)}` : ''}`;
  if (item.entityTypeId === TYPES_COLLECTION) return typePath(projectId, item.entityId);
  if (item.entityTypeId === APPLICATIONS_COLLECTION) return `${projectPath(projectId)}/applications`;
  return `${documentPath(projectId, item.entityTypeId, item.entityId)}?revision=${item.revision}`;
}
