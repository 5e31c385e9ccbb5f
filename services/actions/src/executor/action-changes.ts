import { actionChangeMessageId, actionChangeSubject, type ActionChange } from '@platform/contracts';
import type { OutboxMessage } from '@platform/kit';
import type { StoredAction } from '../domain/action-schema';

/** Action changes made but not published yet (kit's EventOutbox). */
export const ACTION_CHANGES_OUTBOX_COLLECTION = 'actions-changes-outbox';

/** The audit trail's message for one save of an action, as it stands after it. */
export function actionChangeMessage(action: StoredAction, change: ActionChange['change'], changedBy: string): OutboxMessage {
  const data: ActionChange = {
    projectId: action.projectId,
    actionId: action.id,
    revision: action.revision,
    title: action.title,
    ...(action.access ? { access: action.access } : {}),
    change,
    changedBy,
    timestamp: action.updatedAt,
  };
  return { subject: actionChangeSubject(action.projectId), msgId: actionChangeMessageId(data), data };
}
