import { ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { createInProcessBus, type BusMessage } from '@platform/bus';
import { afterEach, describe, expect, it } from 'vitest';
import { instrumentBus } from './bus-instrumentation';
import { busConsumed, busConsumerPending, busPublished, busRedeliveries } from './metrics';
import { startMemoryTracing } from './testing';

async function counterValue(counter: { get(): Promise<{ values: Array<{ labels: object; value: number }> }> }, labels: Record<string, string>): Promise<number> {
  const { values } = await counter.get();
  return values.find((value) => Object.entries(labels).every(([key, wanted]) => (value.labels as Record<string, unknown>)[key] === wanted))?.value ?? 0;
}

describe('instrumentBus', () => {
  let tracing: ReturnType<typeof startMemoryTracing> | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
  });

  it('starts the publish under the publisher\'s trace context, carries it in the headers beside the ones given, and hands the handler its consumer span', async () => {
    tracing = startMemoryTracing();
    const bus = instrumentBus(createInProcessBus());
    const received: Array<{ message: BusMessage; spanId: string | undefined }> = [];
    await bus.subscribe({
      durable: 'trace-test',
      filter: 'platform.docs.>',
      handler: async (message) => void received.push({ message, spanId: trace.getSpan(message.traceContext as Context)?.spanContext().spanId }),
    });
    const write = trace.getTracer('test').startSpan('write');
    await bus.publish('platform.docs.p1.t1.created', { n: 1 }, { msgId: 'm1', headers: { 'x-request-id': 'r1' }, traceContext: trace.setSpan(ROOT_CONTEXT, write) });
    write.end();
    const traceId = write.spanContext().traceId;
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]?.message.headers).toMatchObject({ 'x-request-id': 'r1', traceparent: expect.stringContaining(traceId) });
    const consume = tracing.spans().find((span) => span.name === 'consume trace-test');
    const publish = tracing.spans().find((span) => span.name === 'publish platform.docs.created');
    expect(publish?.parentSpanContext?.spanId).toBe(write.spanContext().spanId);
    expect(consume?.parentSpanContext?.spanId).toBe(publish?.spanContext().spanId);
    expect(received[0]?.spanId).toBe(consume?.spanContext().spanId);
    await bus.close();
  });

  it('makes no span for a trace the sampler left out: its traceparent goes on unchanged and the handler gets no context', async () => {
    tracing = startMemoryTracing();
    const bus = instrumentBus(createInProcessBus());
    const received: BusMessage[] = [];
    await bus.subscribe({ durable: `left-out-${Math.random()}`, filter: 'platform.docs.>', handler: async (message) => void received.push(message) });
    const leftOut = trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.NONE });
    await bus.publish('platform.docs.p1.t1.created', { n: 1 }, { msgId: 'left-out-1', traceContext: leftOut });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]?.headers.traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00');
    expect(received[0]?.traceContext).toBeUndefined();
    expect(tracing.spans()).toHaveLength(0);
    await bus.close();
  });

  it('counts publishes by subject family and result, deliveries by outcome and redeliveries', async () => {
    const bus = instrumentBus(createInProcessBus());
    const durable = `count-test-${Math.random()}`;
    const before = {
      stored: await counterValue(busPublished, { subject: 'platform.docs.updated', result: 'stored' }),
      duplicate: await counterValue(busPublished, { subject: 'platform.docs.updated', result: 'duplicate' }),
    };
    let attempts = 0;
    await bus.subscribe({
      durable,
      filter: 'platform.docs.>',
      retryDelayMs: 10,
      handler: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('store down');
      },
    });
    await bus.publish('platform.docs.p1.t1.updated', {}, { msgId: 'u1' });
    await bus.publish('platform.docs.p1.t1.updated', {}, { msgId: 'u1' });
    while (attempts < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await counterValue(busPublished, { subject: 'platform.docs.updated', result: 'stored' })).toBe(before.stored + 1);
    expect(await counterValue(busPublished, { subject: 'platform.docs.updated', result: 'duplicate' })).toBe(before.duplicate + 1);
    expect(await counterValue(busConsumed, { durable, outcome: 'retry' })).toBe(1);
    expect(await counterValue(busConsumed, { durable, outcome: 'ack' })).toBe(1);
    expect(await counterValue(busRedeliveries, { durable })).toBe(1);
    await bus.close();
  });

  it('keeps each durable\'s lag as the in-process bus reports it with a delivery', async () => {
    const bus = instrumentBus(createInProcessBus());
    const durable = `lag-test-${Math.random()}`;
    for (let n = 1; n <= 5; n += 1) await bus.publish('platform.docs.p1.t1.created', {}, { msgId: `lag-${n}` });
    // The gauge as the handler of each delivery sees it: the backlog behind that message.
    const seen: number[] = [];
    await bus.subscribe({ durable, filter: 'platform.docs.>', handler: async () => void seen.push(await counterValue(busConsumerPending, { durable })) });
    await expect.poll(() => seen.length).toBe(5);
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    await bus.close();
  });

  it('untraced, passes the given headers on as they are and hands the handler no trace context', async () => {
    const bus = instrumentBus(createInProcessBus());
    const received: Array<{ headers: Record<string, string>; traceContext: unknown }> = [];
    await bus.subscribe({ durable: `untraced-${Math.random()}`, filter: 'platform.docs.>', handler: async (message) => void received.push({ headers: message.headers, traceContext: message.traceContext }) });
    await bus.publish('platform.docs.p1.t1.created', { n: 1 }, { msgId: 'untraced-1', headers: { 'x-request-id': 'r1' } });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toEqual({ headers: { 'x-request-id': 'r1' }, traceContext: undefined });
    await bus.close();
  });
});
