import { whileWorking, type EventBus, type Subscription } from '@platform/bus';
import { documentEventSchema } from '@platform/contracts';
import type { Logger, TraceContext } from '@platform/kit';
import { actionEventsDeferred, traceLogFields } from '@platform/telemetry';
import type { Executor } from '../executor/executor';
import type { LegacyWriteDepths } from '../executor/write-causes';
import { ProjectShare } from './project-share';

/** The executor's durable consumer; replicas of the actions service share its messages. */
export const EXECUTOR_DURABLE = 'actions-executor';

/** Thrown to put an event back on the bus: its project has its share of the slots. */
class ProjectShareTaken extends Error {}

/**
 * Feeds every document event to the executor. `concurrency` subscriptions share the durable, so
 * one slow webhook does not hold up every other event; a slow project's events take at most
 * `perProject` of them at once (ProjectShare), and a further one goes back to the bus (redelivered
 * 2 s later), so a project whose webhook hangs cannot hold up every other project's actions. A
 * handler that throws (store unreachable, or one of the event's runs under way in another delivery:
 * RunUnderWayElsewhere) leaves the message unacknowledged and it comes again 2 s later; the run
 * records keep that from running anything twice. While an event is handled, the bus hears
 * every third of the ack wait that it still is (`working()`), so it is not delivered again meanwhile.
 */
export async function startDocumentEventConsumer(
  bus: EventBus,
  executor: Executor,
  options: { concurrency: number; perProject: number; ackWaitMs: number; logger: Logger; legacyDepths: LegacyWriteDepths },
): Promise<() => Promise<void>> {
  const share = new ProjectShare({ perProject: options.perProject });
  const subscriptions: Subscription[] = [];
  for (let i = 0; i < options.concurrency; i += 1) {
    subscriptions.push(
      await bus.subscribe({
        durable: EXECUTOR_DURABLE,
        filter: 'platform.docs.>',
        ackWaitMs: options.ackWaitMs,
        retryDelayMs: 2_000,
        handler: async (message) => {
          const parsed = documentEventSchema.safeParse(message.data);
          if (!parsed.success) {
            options.logger.warn({ subject: message.subject, msgId: message.msgId, ...traceLogFields(message.traceContext as TraceContext | undefined) }, 'skipping a document event that does not match its schema');
            return;
          }
          const ticket = share.tryEnter(parsed.data.projectId);
          if (!ticket) {
            actionEventsDeferred.inc();
            throw new ProjectShareTaken(`project ${parsed.data.projectId} is slow and has its share of the executor`);
          }
          // An event's actions may together outlast the ack wait (slow webhooks, one after another):
          // without this the bus would deliver it again meanwhile, and the second delivery would
          // run later actions before the earlier ones finished.
          try {
            await whileWorking(
              message,
              async () => {
                // An event of a write an earlier version made takes the depth that version recorded for it.
                const event = await options.legacyDepths.complete(parsed.data);
                await executor.handle(event, message.traceContext as TraceContext | undefined);
              },
              options.ackWaitMs,
            );
          } finally {
            share.leave(ticket);
          }
        },
      }),
    );
  }
  return async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
  };
}
