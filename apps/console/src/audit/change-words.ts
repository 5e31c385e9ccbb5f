import { shownPermissions } from '../access/permission-names';

/** The change description keys the audit service answers, in words. */
const CHANGE_WORDS: Record<string, string> = {
  'audit.created': 'created',
  'audit.updated': 'updated',
  'audit.deleted': 'deleted',
  'audit.restored': 'restored',
  'audit.accessChanged': 'access changed',
  'audit.published': 'published',
  'audit.memberAdded': 'member added',
  'audit.memberPermissionsChanged': 'permissions changed',
  'audit.memberRemoved': 'member removed',
  'audit.domainAssigned': 'target changed',
  'audit.domainVerified': 'verified',
  'audit.aiEnabled': 'AI turned on',
  'audit.aiDisabled': 'AI turned off',
  'audit.projectMoved': 'moved to another tenant',
  'audit.ownerChanged': 'owner changed',
};

export function changeInWords(changeDescription: string): string {
  return CHANGE_WORDS[changeDescription] ?? changeDescription;
}

function listed(projectId: string, permissions: readonly string[]): string {
  return permissions.length === 0 ? 'none' : shownPermissions(projectId, permissions);
}

/** What a membership change gave and took, in words (nothing for other changes). */
function permissionsInWords(projectId: string, item: ChangeDetails): string | undefined {
  if (!item.permissions) return undefined;
  if (!item.previousPermissions) return `permissions: ${listed(projectId, item.permissions)}`;
  if (item.permissions.length === 0) return `had: ${listed(projectId, item.previousPermissions)}`;
  return `permissions: ${listed(projectId, item.permissions)} (were: ${listed(projectId, item.previousPermissions)})`;
}

interface DomainTarget {
  applicationId: string;
  versionId: string | null;
  versionNumber?: number;
}

function versionInWords(target: DomainTarget): string {
  if (target.versionId === null) return 'latest version';
  return target.versionNumber === undefined ? 'a version since removed' : `version ${target.versionNumber}`;
}

/** Where a domain points; its application named (by id: its title may not be the reader's to see) only when the change moved it to another. */
function targetInWords(target: DomainTarget | undefined, nameApplication: boolean): string {
  if (!target) return 'nowhere';
  return nameApplication ? `${versionInWords(target)} of application ${target.applicationId}` : versionInWords(target);
}

/** Where an assignment left a domain and where it pointed before. */
function assignmentInWords(item: ChangeDetails): string | undefined {
  if (item.changeDescription !== 'audit.domainAssigned') return undefined;
  const moved = item.target?.applicationId !== item.previousTarget?.applicationId;
  return `to: ${targetInWords(item.target, moved && item.target !== undefined)} (was: ${targetInWords(item.previousTarget, moved && item.previousTarget !== undefined)})`;
}

interface ChangeDetails {
  changeDescription: string;
  permissions?: string[];
  previousPermissions?: string[];
  target?: DomainTarget;
  previousTarget?: DomainTarget;
  previousTitle?: string;
}

/**
 * A project record's change (a membership, a domain, the project's name) in a line under its
 * words: what it gave, took, moved or renamed; the project's permissions by their plain names.
 */
export function changeDetailInWords(projectId: string, item: ChangeDetails): string | undefined {
  if (item.previousTitle !== undefined) return `was: ${item.previousTitle}`;
  return permissionsInWords(projectId, item) ?? assignmentInWords(item);
}
