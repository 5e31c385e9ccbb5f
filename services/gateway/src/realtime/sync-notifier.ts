import type { EventBus, Subscription } from '@platform/bus';
import { documentEventSchema } from '@platform/contracts';
import type { Logger, TraceContext } from '@platform/kit';
import { traceLogFields } from '@platform/telemetry';
import { notificationOf, syncBroadcastSubject } from './sync-notification';

/** Shared by every gateway replica: each document event is turned into one notification. */
export const SYNC_NOTIFIER_DURABLE = 'gateway-sync-notifier';

/**
 * Events older than this are acknowledged without notifying: a notification only says "pull now",
 * and a client that was away catches up with its own pull. This keeps a new durable (which starts
 * at the oldest kept event) from replaying days of history to connected clients.
 */
export const STALE_EVENT_MS = 60_000;

/**
 * The sync notifier: a durable consumer of document events that broadcasts a notification on the
 * project's live subject, which every gateway replica's hub receives. Idempotent by content: a
 * redelivered event yields the same notification (same entity and revision), which clients drop
 * because they already hold that revision.
 */
export async function startSyncNotifier(options: { bus: EventBus; clock: () => number; logger: Logger }): Promise<Subscription> {
  return options.bus.subscribe({
    durable: SYNC_NOTIFIER_DURABLE,
    filter: 'platform.docs.>',
    handler: async (message) => {
      const parsed = documentEventSchema.safeParse(message.data);
      if (!parsed.success) {
        options.logger.warn({ msgId: message.msgId, subject: message.subject, ...traceLogFields(message.traceContext as TraceContext | undefined) }, 'sync notifier skipped a malformed document event');
        return;
      }
      if (options.clock() - parsed.data.change.timestamp > STALE_EVENT_MS) return;
      await options.bus.broadcast(syncBroadcastSubject(parsed.data.projectId), notificationOf(parsed.data));
    },
  });
}
