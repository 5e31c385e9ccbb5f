import { z } from 'zod';

/** The operations row-level security guards. */
export const rlsOperations = ['read', 'update', 'delete'] as const;
export type RlsOperation = (typeof rlsOperations)[number];

const accessRuleShape = {
  permission: z.string().min(1).optional(),
  userIds: z.array(z.string().min(1)).optional(),
};

/**
 * One operation's rule: a permission string (`{projectId}::name`) and/or listed user ids. Strict:
 * a misspelt key (`users`) would otherwise be dropped and leave an empty rule, which opens the
 * operation to every member.
 */
export const accessRuleSchema = z.object(accessRuleShape).strict();

/**
 * RLS configuration stored on every entity (and on projects), as writes must give it: unknown
 * operations or rule keys are refused. An operation without a rule is open to project members.
 */
export const accessSchema = z
  .object({
    read: accessRuleSchema.optional(),
    update: accessRuleSchema.optional(),
    delete: accessRuleSchema.optional(),
  })
  .strict();

const storedAccessRuleSchema = z.object(accessRuleShape).loose();

/** An access configuration as read back: entities stored before writes were strict keep their other keys, and answering them must not fail. */
export const storedAccessSchema = z
  .object({
    read: storedAccessRuleSchema.optional(),
    update: storedAccessRuleSchema.optional(),
    delete: storedAccessRuleSchema.optional(),
  })
  .loose();

export type AccessRule = z.infer<typeof accessRuleSchema>;
export type Access = z.infer<typeof accessSchema>;

/** Members are stored in the `project-members` collection with id `{projectId}:{userId}`. */
export const PROJECT_MEMBERS_COLLECTION = 'project-members';
export const PROJECTS_COLLECTION = 'projects';

/** The collection of a project's types (the spec's `tenant-{projectId}-types`), read by the data service and by every service that applies a type's read rule. */
export function typesCollection(projectId: string): string {
  return `tenant-${projectId}-types`;
}

export const projectRoleSchema = z.enum(['owner', 'member']);
export type ProjectRole = z.infer<typeof projectRoleSchema>;

export const projectMemberSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  userId: z.string(),
  role: projectRoleSchema,
  /** Permission strings, each scoped `{projectId}::name`. */
  permissions: z.array(z.string()),
  createdAt: z.number(),
});
export type ProjectMember = z.infer<typeof projectMemberSchema>;

export function projectMemberId(projectId: string, userId: string): string {
  return `${projectId}:${userId}`;
}

/** `permission` as the project scopes it: prefixed with `{projectId}::` unless it already holds `::`. */
export function scopePermission(projectId: string, permission: string): string {
  return permission.includes('::') ? permission : `${projectId}::${permission}`;
}

/** One rule with its permission name scoped to the project (user ids stay as they are). */
export function scopeAccessRule(projectId: string, rule: AccessRule): AccessRule {
  return rule.permission === undefined ? rule : { ...rule, permission: scopePermission(projectId, rule.permission) };
}

/** Every plain permission name of an access configuration scoped to the project; names holding `::` stay. */
export function scopeAccess(projectId: string, access: Access): Access {
  return Object.fromEntries(Object.entries(access).map(([operation, rule]) => [operation, rule === undefined ? rule : scopeAccessRule(projectId, rule)]));
}
