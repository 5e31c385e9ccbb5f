import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { BusMessage, EventBus, SubscribeOptions } from '@platform/bus';
import { busConsumed, busConsumeDuration, busConsumerPending, busPublished, busRedeliveries, subjectFamily } from './metrics';

const tracer = trace.getTracer('bus');

function failed(span: Span, error: unknown): void {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * The bus with traces and metrics: a publish is a producer span whose context travels in the
 * message headers (W3C `traceparent`, which both adapters carry), and each delivery to a durable
 * is a consumer span under it, active while the handler runs, so whatever the consumer does joins
 * the writer's trace. Counts publishes, deliveries by outcome, redeliveries and handling time, and
 * keeps each durable's lag as the adapter reports it with each delivery.
 */
export function instrumentBus(bus: EventBus): EventBus {
  return {
    kind: bus.kind,
    async publish(subject, data, options) {
      const family = subjectFamily(subject);
      // Not made active: the adapter starts no spans; the consumers' parent travels in the headers.
      const span = tracer.startSpan(`publish ${family}`, { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': bus.kind, 'messaging.destination.name': subject, 'messaging.message.id': options.msgId } });
      const headers = { ...options.headers };
      propagation.inject(trace.setSpan(context.active(), span), headers);
      try {
        const result = await bus.publish(subject, data, { ...options, headers });
        busPublished.inc({ subject: family, result: result.duplicate ? 'duplicate' : 'stored' });
        return result;
      } catch (error) {
        busPublished.inc({ subject: family, result: 'failed' });
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    async subscribe<T>(options: SubscribeOptions<T>) {
      const { durable } = options;
      const handler = async (message: BusMessage<T>): Promise<void> => {
        if (message.deliveryCount > 1) busRedeliveries.inc({ durable });
        if (message.pending !== undefined) busConsumerPending.set({ durable }, message.pending);
        const parent = propagation.extract(ROOT_CONTEXT, message.headers);
        const attributes = { 'messaging.system': bus.kind, 'messaging.destination.name': message.subject, 'messaging.consumer.group.name': durable, 'messaging.message.id': message.msgId, 'messaging.delivery_count': message.deliveryCount };
        await tracer.startActiveSpan(`consume ${durable}`, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
          const stopTimer = busConsumeDuration.startTimer({ durable });
          try {
            await options.handler(message);
            busConsumed.inc({ durable, outcome: 'ack' });
          } catch (error) {
            busConsumed.inc({ durable, outcome: 'retry' });
            failed(span, error);
            throw error;
          } finally {
            stopTimer();
            span.end();
          }
        });
      };
      return bus.subscribe({ ...options, handler });
    },
    broadcast: (subject, data) => bus.broadcast(subject, data),
    listen: (filter, handler) => bus.listen(filter, handler),
    ping: () => bus.ping(),
    drain: (timeoutMs) => bus.drain(timeoutMs),
    close: () => bus.close(),
  };
}
