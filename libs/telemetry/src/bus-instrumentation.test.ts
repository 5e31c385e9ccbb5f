import { trace } from '@opentelemetry/api';
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

  it('carries the publisher\'s trace in the headers, beside the ones given, and runs the handler in a consumer span under it', async () => {
    tracing = startMemoryTracing();
    const bus = instrumentBus(createInProcessBus());
    const received: Array<{ message: BusMessage; traceId: string | undefined }> = [];
    await bus.subscribe({ durable: 'trace-test', filter: 'platform.docs.>', handler: async (message) => void received.push({ message, traceId: trace.getActiveSpan()?.spanContext().traceId }) });
    const traceId = await trace.getTracer('test').startActiveSpan('write', async (span) => {
      await bus.publish('platform.docs.p1.t1.created', { n: 1 }, { msgId: 'm1', headers: { 'x-request-id': 'r1' } });
      span.end();
      return span.spanContext().traceId;
    });
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(received[0]?.message.headers).toMatchObject({ 'x-request-id': 'r1', traceparent: expect.stringContaining(traceId) });
    expect(received[0]?.traceId).toBe(traceId);
    const consume = tracing.spans().find((span) => span.name === 'consume trace-test');
    const publish = tracing.spans().find((span) => span.name === 'publish platform.docs.created');
    expect(consume?.parentSpanContext?.spanId).toBe(publish?.spanContext().spanId);
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

  it('untraced, passes the given headers on as they are and runs the handler in no span', async () => {
    const bus = instrumentBus(createInProcessBus());
    const received: Array<{ headers: Record<string, string>; span: unknown }> = [];
    await bus.subscribe({ durable: `untraced-${Math.random()}`, filter: 'platform.docs.>', handler: async (message) => void received.push({ headers: message.headers, span: trace.getActiveSpan() }) });
    await bus.publish('platform.docs.p1.t1.created', { n: 1 }, { msgId: 'untraced-1', headers: { 'x-request-id': 'r1' } });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toEqual({ headers: { 'x-request-id': 'r1' }, span: undefined });
    await bus.close();
  });
});
