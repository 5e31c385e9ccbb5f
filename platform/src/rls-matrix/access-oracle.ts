import type { Access } from '@platform/contracts';

/** The kinds of caller the matrix asks about, by their standing in the project. */
/**
 * `removed member` held the readers' permission and had its realtime stream open, then was removed before anything was written.
 * `platform owner` is an account promoted to platform owner that is not a member of the project.
 */
export const userRoles = ['owner', 'platform owner', 'member with permission', 'member without permission', 'listed user', 'removed member', 'non-member', 'anonymous'] as const;
export type UserRole = (typeof userRoles)[number];

/** The permission (unscoped name) the entity rules and the permitted member share. */
export const READER_PERMISSION = 'readers';

/**
 * One access rule as the test writes it, and how it is named in the table. `on: 'entity'` puts it
 * on the documents, the application and the action; `on: 'type'` puts it on the documents' type instead (the
 * documents carry no rule) and, since applications and actions have no type, on them;
 * `on: 'defaultAccess'` makes it the type's `defaultAccess`, which the documents take when written
 * without a rule of their own (the application and the action carry it themselves).
 */
export interface AccessRuleCase {
  key: string;
  label: string;
  on: 'entity' | 'type' | 'defaultAccess';
  access(ids: { projectId: string; listedUserId: string }): Access | undefined;
}

/**
 * Every rule the product's RLS distinguishes (docs/data.md: permission, listed users, both, no rule
 * for the operation), plus two that must let nobody but the owner in: a permission scoped to
 * another project and an empty list of users. The `type …` cases put the rule on the type, which
 * guards its documents like their own rule would (docs/data.md, "Types are guarded like their project").
 */
export const accessRuleCases: AccessRuleCase[] = [
  { key: 'members', label: 'no rule (every member)', on: 'entity', access: () => undefined },
  { key: 'updateRuleOnly', label: 'rule on update only', on: 'entity', access: ({ projectId }) => ({ update: { permission: `${projectId}::${READER_PERMISSION}` } }) },
  { key: 'permission', label: 'read: permission', on: 'entity', access: ({ projectId }) => ({ read: { permission: `${projectId}::${READER_PERMISSION}` } }) },
  { key: 'listed', label: 'read: listed users', on: 'entity', access: ({ listedUserId }) => ({ read: { userIds: [listedUserId] } }) },
  {
    key: 'permissionOrListed',
    label: 'read: permission or listed',
    on: 'entity',
    access: ({ projectId, listedUserId }) => ({ read: { permission: `${projectId}::${READER_PERMISSION}`, userIds: [listedUserId] } }),
  },
  { key: 'otherProject', label: "read: other project's permission", on: 'entity', access: () => ({ read: { permission: `elsewhere::${READER_PERMISSION}` } }) },
  { key: 'ownerOnly', label: 'read: nobody listed (owner only)', on: 'entity', access: () => ({ read: { userIds: [] } }) },
  { key: 'typePermission', label: 'type read: permission', on: 'type', access: ({ projectId }) => ({ read: { permission: `${projectId}::${READER_PERMISSION}` } }) },
  { key: 'typeListed', label: 'type read: listed users', on: 'type', access: ({ listedUserId }) => ({ read: { userIds: [listedUserId] } }) },
  { key: 'typeOwnerOnly', label: 'type read: nobody listed (owner only)', on: 'type', access: () => ({ read: { userIds: [] } }) },
  {
    key: 'defaultPermission',
    label: 'type defaultAccess read: permission',
    on: 'defaultAccess',
    access: ({ projectId }) => ({ read: { permission: `${projectId}::${READER_PERMISSION}` } }),
  },
];

/** Project owners and platform owners pass every RLS check (docs/identity.md), members or not. */
function passesEveryCheck(role: UserRole): boolean {
  return role === 'owner' || role === 'platform owner';
}

/**
 * Who may read an entity, written from the documented rule rather than the product's code:
 * non-members, removed members and anonymous callers read nothing of a project, its owner and
 * platform owners read everything, and a
 * member reads when the entity has no read rule, or the member holds the rule's permission, or
 * the rule lists the member.
 */
export function mayRead(role: UserRole, rule: AccessRuleCase): boolean {
  if (role === 'non-member' || role === 'removed member' || role === 'anonymous') return false;
  if (passesEveryCheck(role)) return true;
  const read = rule.access({ projectId: 'p', listedUserId: 'listed' })?.read;
  if (!read) return true;
  const heldPermissions = role === 'member with permission' ? [`p::${READER_PERMISSION}`] : [];
  const listed = role === 'listed user' ? read.userIds?.includes('listed') === true : false;
  return (read.permission !== undefined && heldPermissions.includes(read.permission)) || listed;
}

/**
 * Who may read a type itself (its schema): the project's members unless the rule sits on the type
 * (a `defaultAccess` guards the documents written later, not the type).
 */
export function mayReadType(role: UserRole, rule: AccessRuleCase): boolean {
  if (rule.on === 'type') return mayRead(role, rule);
  return passesEveryCheck(role) || role === 'member with permission' || role === 'member without permission' || role === 'listed user';
}

/**
 * Batch RLS needs the project's update rule, which the matrix project restricts to a permission
 * nobody holds, so only the owners' standing passes: for everyone else the path must reveal nothing at all.
 */
export function mayAdministerRls(role: UserRole): boolean {
  return passesEveryCheck(role);
}
