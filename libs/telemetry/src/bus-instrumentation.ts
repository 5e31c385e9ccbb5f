import { propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { BusMessage, EventBus, PublishOptions, PublishResult, SubscribeOptions } from '@platform/bus';
import { busConsumed, busConsumeDuration, busConsumerPending, busDeliveryDelay, busPublished, busRedeliveries, subjectFamily } from './metrics';
import { recordFailure, startChildSpan, unsampledTraceparent, type TraceContext } from './trace-context';
import { tracingStarted } from './tracing';

const tracer = trace.getTracer('bus');

/** A publish, counted by subject family and result. */
async function countedPublish(bus: EventBus, family: string, subject: string, data: unknown, options: PublishOptions): Promise<PublishResult> {
  try {
    const result = await bus.publish(subject, data, options);
    busPublished.inc({ subject: family, result: result.duplicate ? 'duplicate' : 'stored' });
    return result;
  } catch (error) {
    busPublished.inc({ subject: family, result: 'failed' });
    throw error;
  }
}

/** One delivery to `handler`: redeliveries, the durable's lag, how long the message waited, the outcome and the handling time counted. */
async function countedDelivery<T>(durable: string, message: BusMessage<T>, handler: (message: BusMessage<T>) => Promise<void>): Promise<void> {
  if (message.deliveryCount > 1) busRedeliveries.inc({ durable });
  if (message.pending !== undefined) busConsumerPending.set({ durable }, message.pending);
  // Clocks of two hosts may disagree by a little: a message is never taken to have waited less than nothing.
  if (message.publishedAt !== undefined) busDeliveryDelay.observe({ durable }, Math.max(0, Date.now() - message.publishedAt) / 1000);
  const stopTimer = busConsumeDuration.startTimer({ durable });
  try {
    await handler(message);
    busConsumed.inc({ durable, outcome: 'ack' });
  } catch (error) {
    busConsumed.inc({ durable, outcome: 'retry' });
    throw error;
  } finally {
    stopTimer();
  }
}

/**
 * The bus with traces and metrics: a publish is a producer span under the publisher's
 * `traceContext` whose context travels in the message headers (W3C `traceparent`, which both
 * adapters carry), and each delivery to a durable is a consumer span under it, handed to the
 * handler as the message's `traceContext`, so whatever the consumer starts below joins the
 * writer's trace. Counts publishes, deliveries by outcome, redeliveries and handling time, and
 * keeps each durable's lag as the adapter reports it with each delivery. Untraced (no tracer
 * provider registered), publishes and deliveries are only counted: no no-op span, context or
 * attributes per message.
 */
export function instrumentBus(bus: EventBus): EventBus {
  return {
    kind: bus.kind,
    async publish(subject, data, options) {
      const family = subjectFamily(subject);
      // Untraced (no provider registered), there is no span to start and no context to carry.
      if (!tracingStarted()) return countedPublish(bus, family, subject, data, options);
      // The consumers' parent travels in the headers.
      const attributes = { 'messaging.system': bus.kind, 'messaging.destination.name': subject, 'messaging.message.id': options.msgId };
      const { span, context } = startChildSpan(tracer, `publish ${family}`, { kind: SpanKind.PRODUCER, attributes }, options.traceContext as TraceContext | undefined);
      const headers = { ...options.headers };
      propagation.inject(context, headers);
      try {
        return await countedPublish(bus, family, subject, data, { msgId: options.msgId, headers });
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    async subscribe<T>(options: SubscribeOptions<T>) {
      const { durable } = options;
      const counted = (message: BusMessage<T>) => countedDelivery(durable, message, options.handler);
      const handler = async (message: BusMessage<T>): Promise<void> => {
        // Untraced, or a trace the sampler left out: nothing below it is recorded.
        if (!tracingStarted() || unsampledTraceparent(message.headers.traceparent)) return counted(message);
        const parent = propagation.extract(ROOT_CONTEXT, message.headers);
        const attributes = { 'messaging.system': bus.kind, 'messaging.destination.name': message.subject, 'messaging.consumer.group.name': durable, 'messaging.message.id': message.msgId, 'messaging.delivery_count': message.deliveryCount };
        const { span, context } = startChildSpan(tracer, `consume ${durable}`, { kind: SpanKind.CONSUMER, attributes }, parent);
        try {
          await counted({ ...message, traceContext: context });
        } catch (error) {
          recordFailure(span, error);
          throw error;
        } finally {
          span.end();
        }
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
