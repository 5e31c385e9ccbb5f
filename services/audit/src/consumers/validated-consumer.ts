import type { BusMessage, Subscription } from '@platform/bus';
import type { ServiceContext, TraceContext } from '@platform/kit';
import { traceLogFields } from '@platform/telemetry';
import type { z } from 'zod';

/**
 * A durable subscription whose messages are checked against their contract before `handle` sees
 * them. A message that fails the check is logged and acknowledged: no retry can fix it, and
 * leaving it would block the stream. A handler that throws makes the message come again.
 */
export function startValidatedConsumer<T>(
  context: Pick<ServiceContext, 'bus' | 'logger'>,
  options: { durable: string; filter: string; schema: z.ZodType<T>; what: string; handle: (data: T, message: BusMessage<unknown>) => Promise<void> },
): Promise<Subscription> {
  return context.bus.subscribe<unknown>({
    durable: options.durable,
    filter: options.filter,
    handler: async (message) => {
      const parsed = options.schema.safeParse(message.data);
      if (!parsed.success) {
        context.logger.error({ msgId: message.msgId, subject: message.subject, issues: parsed.error.issues, ...traceLogFields(message.traceContext as TraceContext | undefined) }, `malformed ${options.what} skipped`);
        return;
      }
      await options.handle(parsed.data, message);
    },
  });
}
