import { rlsOperations, scopePermission, type Access, type RlsOperation } from '@platform/contracts';
import type { Filter, UpdateModifier } from '@platform/storage';
import { z } from 'zod';

export const batchRlsActions = ['setPermission', 'removePermission', 'addUserId', 'removeUserId', 'resetToDefault'] as const;

const operationSchema = z.enum(rlsOperations);

/** The request body of POST .../batch-rls, with the per-action requirements of the spec. */
export const batchRlsRequestSchema = z
  .object({
    action: z.enum(batchRlsActions),
    operations: z.array(operationSchema).min(1).optional(),
    permission: z.string().min(1).optional(),
    userId: z.string().min(1).optional(),
    filter: z
      .object({ rlsOperation: operationSchema.optional(), rlsPermission: z.string().min(1).optional(), rlsUserId: z.string().min(1).optional() })
      .strict()
      .optional(),
    dryRun: z.boolean().optional(),
    includeDeleted: z
      .boolean()
      .optional()
      .describe('Also target soft-deleted entities (they keep their content in the store), e.g. to restrict who may still read them; the answer then has deletedCount'),
  })
  // A misspelt key (`userIds` for `userId`) is refused rather than ignored.
  .strict()
  // Only a missing field is reported here: an empty one has its own issue already (min 1), and one fault gets one issue.
  .superRefine((body, ctx) => {
    if (body.action !== 'resetToDefault' && body.operations === undefined) ctx.addIssue({ code: 'custom', path: ['operations'], message: `is required for ${body.action}` });
    if ((body.action === 'setPermission' || body.action === 'removePermission') && body.permission === undefined) {
      ctx.addIssue({ code: 'custom', path: ['permission'], message: `is required for ${body.action}` });
    }
    if ((body.action === 'addUserId' || body.action === 'removeUserId') && body.userId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['userId'], message: `is required for ${body.action}` });
    }
  });

export type BatchRlsRequest = z.infer<typeof batchRlsRequestSchema>;

/**
 * Which entities a batch targets: not deleted ones unless `includeDeleted` (the spec's rule: without
 * a filter, all non-deleted entities), and of those all without a filter. With
 * `rlsOperation`, the permission and user filters look at that operation only; without it, at any
 * operation. `rlsOperation` alone matches entities that have a rule on that operation. Filter
 * permissions are scoped like the action's (`{projectId}::` unless they contain `::`).
 */
export function batchTargetFilter(projectId: string, filter: BatchRlsRequest['filter'], includeDeleted = false): Filter {
  const conditions: Filter[] = includeDeleted ? [] : [{ deletedAt: { $exists: false } }];
  const operations: readonly RlsOperation[] = filter?.rlsOperation ? [filter.rlsOperation] : rlsOperations;
  const anyOperation = (condition: (operation: RlsOperation) => Filter): Filter => ({ $or: operations.map(condition) });
  if (filter?.rlsPermission) {
    const permission = scopePermission(projectId, filter.rlsPermission);
    conditions.push(anyOperation((operation) => ({ [`access.${operation}.permission`]: permission })));
  }
  if (filter?.rlsUserId) {
    const userId = filter.rlsUserId;
    conditions.push(anyOperation((operation) => ({ [`access.${operation}.userIds`]: userId })));
  }
  if (filter?.rlsOperation && !filter.rlsPermission && !filter.rlsUserId) {
    const operation = filter.rlsOperation;
    conditions.push({ $or: [{ [`access.${operation}.permission`]: { $exists: true } }, { [`access.${operation}.userIds.0`]: { $exists: true } }] });
  }
  if (conditions.length === 0) return {};
  return conditions.length === 1 ? (conditions[0] as Filter) : { $and: conditions };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The modifier a batch applies to one entity given its current access, or null when the entity
 * already is as the action wants it (then it is matched but not modified: no revision, no event).
 */
export function batchModifierFor(projectId: string, request: BatchRlsRequest, current: Access | undefined, defaultAccess: Access | undefined): UpdateModifier | null {
  if (request.action === 'resetToDefault') return sameJson(current, defaultAccess) ? null : { $set: { access: defaultAccess } };
  const set: Record<string, unknown> = {};
  const unset: Record<string, unknown> = {};
  const addToSet: Record<string, unknown> = {};
  const pull: Record<string, unknown> = {};
  for (const operation of request.operations ?? []) {
    const rule = current?.[operation];
    switch (request.action) {
      case 'setPermission': {
        const permission = scopePermission(projectId, request.permission as string);
        if (rule?.permission !== permission) set[`access.${operation}.permission`] = permission;
        break;
      }
      case 'removePermission':
        if (rule?.permission === scopePermission(projectId, request.permission as string)) unset[`access.${operation}.permission`] = '';
        break;
      case 'addUserId':
        if (!rule?.userIds?.includes(request.userId as string)) addToSet[`access.${operation}.userIds`] = request.userId;
        break;
      case 'removeUserId':
        if (rule?.userIds?.includes(request.userId as string)) pull[`access.${operation}.userIds`] = request.userId;
        break;
    }
  }
  const modifier: UpdateModifier = {};
  if (Object.keys(set).length) modifier.$set = set;
  if (Object.keys(unset).length) modifier.$unset = unset;
  if (Object.keys(addToSet).length) modifier.$addToSet = addToSet;
  if (Object.keys(pull).length) modifier.$pull = pull;
  return Object.keys(modifier).length ? modifier : null;
}
