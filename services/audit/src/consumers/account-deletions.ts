import { whileWorking, type Subscription } from '@platform/bus';
import { ACCOUNT_DELETED_FILTER, type AccountDeleted } from '@platform/contracts';
import type { ServiceContext } from '@platform/kit';
import type { TrailStore } from '../trail/trail-store';

/**
 * Erases a deleted account's display name from the trail (AccountDeleted): one durable the audit
 * replicas share, so each deletion is handled once. Idempotent, as a redelivery runs it again.
 */
export function startAccountDeletionsConsumer(context: Pick<ServiceContext, 'bus' | 'logger'>, trail: TrailStore): Promise<Subscription> {
  return context.bus.subscribe<AccountDeleted>({
    durable: 'audit-account-deletions',
    filter: ACCOUNT_DELETED_FILTER,
    handler: async (message) => {
      const { data } = message;
      // A scan of the whole trail, which can outlast the ack wait.
      const erased = await whileWorking(message, () => trail.forgetAuthorName(data.userId));
      context.logger.info({ userId: data.userId, erased }, "audit: deleted account's name erased");
    },
  });
}
