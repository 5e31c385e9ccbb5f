import type { ActionChange, ChangeKind, DomainChange, MembershipChange, ProjectChange } from '@platform/contracts';

/** The message keys of `changeDescription`; clients translate them. */
export const CHANGE_DESCRIPTIONS = {
  created: 'audit.created',
  updated: 'audit.updated',
  deleted: 'audit.deleted',
  restored: 'audit.restored',
  accessChanged: 'audit.accessChanged',
  published: 'audit.published',
  memberAdded: 'audit.memberAdded',
  memberPermissionsChanged: 'audit.memberPermissionsChanged',
  memberRemoved: 'audit.memberRemoved',
  domainAssigned: 'audit.domainAssigned',
  domainVerified: 'audit.domainVerified',
  aiEnabled: 'audit.aiEnabled',
  aiDisabled: 'audit.aiDisabled',
  projectMoved: 'audit.projectMoved',
  ownerChanged: 'audit.ownerChanged',
} as const;

export type ChangeDescription = (typeof CHANGE_DESCRIPTIONS)[keyof typeof CHANGE_DESCRIPTIONS];

export interface DescribedChange {
  /** What the `changeType` filter matches: the kind of the document event. */
  changeType: ChangeKind;
  changeDescription: ChangeDescription;
}

type Modifier = Record<string, Record<string, unknown>>;

function rootsOf(modifier: Modifier): Set<string> {
  const roots = new Set<string>();
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const [path, value] of Object.entries(fields)) {
      roots.add(path.split('.')[0] as string);
      if (operator === '$rename' && typeof value === 'string') roots.add(value.split('.')[0] as string);
    }
  }
  return roots;
}

/**
 * What one change did, from its revision and modifier alone (the same rule as the data service's
 * event kinds, so the live consumer and the rebuild agree): revision 0 creates; setting
 * `deletedAt` deletes; unsetting it restores; a change that touches only `access` is an access
 * change; setting `publishedVersionId` on an application publishes it; anything else updates.
 */
export function describeChange(typeId: string, revision: number, modifier: Modifier): DescribedChange {
  if (revision === 0) return { changeType: 'created', changeDescription: CHANGE_DESCRIPTIONS.created };
  if (modifier.$set && 'deletedAt' in modifier.$set) return { changeType: 'deleted', changeDescription: CHANGE_DESCRIPTIONS.deleted };
  if (modifier.$unset && 'deletedAt' in modifier.$unset) return { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.restored };
  const roots = rootsOf(modifier);
  if (roots.size > 0 && [...roots].every((root) => root === 'access')) return { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.accessChanged };
  if (typeId === 'applications' && modifier.$set && 'publishedVersionId' in modifier.$set) {
    return { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.published };
  }
  return { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.updated };
}

const MEMBERSHIP_CHANGES: Record<MembershipChange['change'], DescribedChange> = {
  added: { changeType: 'created', changeDescription: CHANGE_DESCRIPTIONS.memberAdded },
  permissionsChanged: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.memberPermissionsChanged },
  removed: { changeType: 'deleted', changeDescription: CHANGE_DESCRIPTIONS.memberRemoved },
};

/** What a membership change did, in the trail's terms: joining creates a membership, leaving deletes it. */
export function describeMembershipChange(change: MembershipChange['change']): DescribedChange {
  return MEMBERSHIP_CHANGES[change];
}

/** What a save of an action did: the plain created, updated and deleted of any entity. */
export function describeActionChange(change: ActionChange['change']): DescribedChange {
  return { changeType: change, changeDescription: CHANGE_DESCRIPTIONS[change] };
}

const DOMAIN_CHANGES: Record<DomainChange['change'], DescribedChange> = {
  created: { changeType: 'created', changeDescription: CHANGE_DESCRIPTIONS.created },
  renamed: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.updated },
  assigned: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.domainAssigned },
  verified: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.domainVerified },
  removed: { changeType: 'deleted', changeDescription: CHANGE_DESCRIPTIONS.deleted },
};

/** What a change of a domain did: a new hostname is an update, pointing it elsewhere an assignment. */
export function describeDomainChange(change: DomainChange['change']): DescribedChange {
  return DOMAIN_CHANGES[change];
}

const PROJECT_CHANGES: Record<ProjectChange['change'], DescribedChange> = {
  created: { changeType: 'created', changeDescription: CHANGE_DESCRIPTIONS.created },
  renamed: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.updated },
  aiEnabled: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.aiEnabled },
  aiDisabled: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.aiDisabled },
  moved: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.projectMoved },
  ownerChanged: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.ownerChanged },
  deleted: { changeType: 'deleted', changeDescription: CHANGE_DESCRIPTIONS.deleted },
  restored: { changeType: 'updated', changeDescription: CHANGE_DESCRIPTIONS.restored },
};

/** What a change of the project's own settings did: a rename is an update, a restore as for any entity. */
export function describeProjectChange(change: ProjectChange['change']): DescribedChange {
  return PROJECT_CHANGES[change];
}
