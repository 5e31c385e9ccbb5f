import { describe, expect, it } from 'vitest';
import { createInProcessBus } from './in-process';
import type { EventBus } from './port';

const subject = 'platform.docs.p1.t1.updated';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function publishNumbers(bus: EventBus, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) await bus.publish(subject, n, { msgId: `m${n}` });
}

/** A durable that takes `handleMs` per message and acknowledges each by resolving. */
async function slowDurable(bus: EventBus, durable: string, handleMs: number): Promise<number[]> {
  const acknowledged: number[] = [];
  await bus.subscribe<number>({
    durable,
    filter: 'platform.docs.>',
    handler: async (message) => {
      await pause(handleMs);
      acknowledged.push(message.data);
    },
  });
  return acknowledged;
}

describe('in-process bus drain', () => {
  it('waits until a slow durable has acknowledged every queued message, a failed one retried', async () => {
    const bus = createInProcessBus();
    const slow = await slowDurable(bus, 'slow', 20);
    let failedOnce = false;
    const flaky: number[] = [];
    await bus.subscribe<number>({
      durable: 'flaky',
      filter: 'platform.docs.>',
      retryDelayMs: 50,
      handler: async (message) => {
        if (message.data === 3 && !failedOnce) {
          failedOnce = true;
          throw new Error('not this time');
        }
        flaky.push(message.data);
      },
    });
    await publishNumbers(bus, 10);

    expect(await bus.drain(5_000)).toEqual({ left: {} });
    expect(slow).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(failedOnce).toBe(true);
    expect([...flaky].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await bus.close();
  });

  it('waits for messages a handler publishes while the drain runs', async () => {
    const bus = createInProcessBus();
    const followUps: string[] = [];
    await bus.subscribe<number>({
      durable: 'chain',
      filter: 'platform.docs.>',
      handler: async (message) => {
        await pause(10);
        if (message.data < 5) await bus.publish(subject, message.data + 1, { msgId: `m${message.data + 1}` });
        followUps.push(message.msgId);
      },
    });
    await bus.publish(subject, 0, { msgId: 'm0' });

    expect(await bus.drain(5_000)).toEqual({ left: {} });
    expect(followUps).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    await bus.close();
  });

  it('stops at the time limit and answers how many messages each durable has left', async () => {
    const bus = createInProcessBus();
    const slow = await slowDurable(bus, 'slow', 100);
    const quick = await slowDurable(bus, 'quick', 0);
    await publishNumbers(bus, 20);

    const started = Date.now();
    const { left } = await bus.drain(250);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(quick).toHaveLength(20);
    expect(Object.keys(left)).toEqual(['slow']);
    expect(left.slow).toBe(20 - slow.length);
    expect(left.slow).toBeGreaterThan(10);
    await bus.close();
  });

  it('answers at once when nothing is queued, and neither waits for nor counts a durable whose subscriptions were stopped', async () => {
    const bus = createInProcessBus();
    expect(await bus.drain(5_000)).toEqual({ left: {} });
    const subscription = await bus.subscribe({ durable: 'away', filter: 'platform.docs.>', handler: async () => undefined });
    await subscription.stop();
    await publishNumbers(bus, 3);

    const started = Date.now();
    expect(await bus.drain(5_000)).toEqual({ left: {} });
    expect(Date.now() - started).toBeLessThan(1_000);
    await bus.close();
  });
});
