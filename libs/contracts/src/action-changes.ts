import { z } from 'zod';
import { storedAccessSchema } from './access';

/**
 * The actions service publishes `platform.actions.<projectId>.changed` (message id
 * `action-change:<projectId>/<actionId>/<revision>`) for every save of an action: created, its
 * definition replaced, deleted. The audit trail keeps one item per revision, guarded by the
 * action's read rule, so "who pointed this webhook elsewhere, and when?" has an answer.
 */
export const actionChangeSchema = z.object({
  projectId: z.string().min(1),
  actionId: z.string().min(1),
  /** The action's revision after the change (0 for its creation). */
  revision: z.number().int().min(0),
  title: z.string(),
  /** The action's RLS after the change (who may read it may read its changes). */
  access: storedAccessSchema.optional(),
  change: z.enum(['created', 'updated', 'deleted']),
  changedBy: z.string().min(1),
  timestamp: z.number(),
});
export type ActionChange = z.infer<typeof actionChangeSchema>;

export const ACTION_CHANGES_FILTER = 'platform.actions.*.changed';

export function actionChangeSubject(projectId: string): string {
  return `platform.actions.${projectId}.changed`;
}

export function actionChangeMessageId(change: Pick<ActionChange, 'projectId' | 'actionId' | 'revision'>): string {
  return `action-change:${change.projectId}/${change.actionId}/${change.revision}`;
}
