import { describe, expect, it } from 'vitest';
import { createInProcessBus, DEFAULT_MAX_KEPT_BYTES } from './in-process';
import type { BusMessage, EventBus } from './port';

const MAX_MESSAGES = 10;
const subject = 'platform.docs.p1.t1.updated';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function publishNumbers(bus: EventBus, from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n += 1) await bus.publish(subject, n, { msgId: `m${n}` });
}

/** What a durable created now receives: it starts from the oldest kept message. */
async function keptMessages(bus: EventBus, expected: number): Promise<number[]> {
  const received: number[] = [];
  const subscription = await bus.subscribe<number>({ durable: 'latecomer', filter: 'platform.>', handler: async (message) => void received.push(message.data) });
  await expect.poll(() => received.length).toBe(expected);
  await pause(100);
  await subscription.stop();
  return received;
}

/** A handler that holds its first message until released, so its durable falls behind. */
function slowConsumer() {
  const received: BusMessage<number>[] = [];
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    received,
    release: () => release(),
    handler: async (message: BusMessage<number>) => {
      received.push(message);
      if (received.length === 1) await released;
    },
  };
}

describe('in-process bus retention', () => {
  it('delivers every message to a durable lagging far beyond maxMessages, in order, once each', async () => {
    const bus = createInProcessBus({ maxMessages: MAX_MESSAGES });
    const slow = slowConsumer();
    await bus.subscribe({ durable: 'slow', filter: 'platform.docs.>', handler: slow.handler });
    await publishNumbers(bus, 0, 50);
    await expect.poll(() => slow.received.length).toBe(1);
    slow.release();
    await expect.poll(() => slow.received.length).toBe(50);
    await pause(100);
    expect(slow.received.map((message) => message.data)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    expect(slow.received.every((message) => message.deliveryCount === 1)).toBe(true);
    await bus.close();
  });

  it('keeps the backlog of a durable without subscribers for when it resumes', async () => {
    const bus = createInProcessBus({ maxMessages: MAX_MESSAGES });
    const first: number[] = [];
    const before = await bus.subscribe<number>({ durable: 'resumes', filter: 'platform.>', handler: async (message) => void first.push(message.data) });
    await publishNumbers(bus, 0, 1);
    await expect.poll(() => first).toEqual([0]);
    await before.stop();
    await publishNumbers(bus, 1, 50);
    const later: number[] = [];
    const after = await bus.subscribe<number>({ durable: 'resumes', filter: 'platform.>', handler: async (message) => void later.push(message.data) });
    await expect.poll(() => later.length).toBe(50);
    await pause(100);
    expect(later).toEqual(Array.from({ length: 50 }, (_, n) => n + 1));
    await after.stop();
    await bus.close();
  });

  it('keeps a failed message for its redelivery while newer ones are acknowledged past maxMessages', async () => {
    const bus = createInProcessBus({ maxMessages: MAX_MESSAGES });
    const handled: Array<[number, number]> = [];
    await bus.subscribe<number>({
      durable: 'retrying',
      filter: 'platform.>',
      retryDelayMs: 2000,
      handler: async (message) => {
        if (message.data === 0 && message.deliveryCount === 1) throw new Error('fails once');
        handled.push([message.data, message.deliveryCount]);
      },
    });
    await publishNumbers(bus, 0, 1);
    // The durable keeps up with the newer ones: only the failed message is still unacknowledged.
    for (let n = 1; n <= 30; n += 1) {
      await publishNumbers(bus, n, 1);
      await expect.poll(() => handled.length, { interval: 5 }).toBe(n);
    }
    expect(handled.map(([n]) => n)).not.toContain(0);
    await expect.poll(() => handled.length, { timeout: 5000 }).toBe(31);
    expect(handled.at(-1)).toEqual([0, 2]);
    await bus.close();
  });

  it('trims what every durable acknowledged once a lagging one catches up: a later durable starts at most maxMessages back', async () => {
    const bus = createInProcessBus({ maxMessages: MAX_MESSAGES });
    const slow = slowConsumer();
    await bus.subscribe({ durable: 'slow', filter: 'platform.docs.>', handler: slow.handler });
    // A durable whose filter matches none of them holds none of them.
    await bus.subscribe({ durable: 'elsewhere', filter: 'platform.audit.>', handler: async () => undefined });
    await publishNumbers(bus, 0, 50);
    await expect.poll(() => slow.received.length).toBe(1);
    slow.release();
    await expect.poll(() => slow.received.length).toBe(50);
    await publishNumbers(bus, 50, 5);
    await expect.poll(() => slow.received.length).toBe(55);
    expect(slow.received.map((message) => message.data)).toEqual(Array.from({ length: 55 }, (_, n) => n));
    expect(await keptMessages(bus, MAX_MESSAGES)).toEqual(Array.from({ length: MAX_MESSAGES }, (_, n) => 45 + n));
    await bus.close();
  });

  it('keeps at most maxBytes of what every durable acknowledged, the newest, and a lagging durable\'s backlog whatever its bytes', async () => {
    const bus = createInProcessBus({ maxBytes: 10_000 });
    const slow = slowConsumer();
    await bus.subscribe({ durable: 'slow', filter: 'platform.docs.>', handler: slow.handler });
    const body = 'x'.repeat(1000);
    for (let n = 0; n < 50; n += 1) await bus.publish(subject, { n, body }, { msgId: `m${n}` });
    await expect.poll(() => slow.received.length).toBe(1);
    slow.release();
    await expect.poll(() => slow.received.length).toBe(50);
    // One more publish trims what the durable has acknowledged meanwhile.
    await bus.publish(subject, { n: 50, body }, { msgId: 'm50' });
    await expect.poll(() => slow.received.length).toBe(51);
    const later: number[] = [];
    await bus.subscribe<{ n: number }>({ durable: 'latecomer', filter: 'platform.>', handler: async (message) => void later.push(message.data.n) });
    await pause(200);
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThanOrEqual(10);
    expect(later).toEqual(Array.from({ length: later.length }, (_, n) => 51 - later.length + n));
    await bus.close();
  });

  it('keeps no more than DEFAULT_MAX_KEPT_BYTES of acknowledged messages by default, however few they are', async () => {
    const bus = createInProcessBus();
    const handled: number[] = [];
    await bus.subscribe<{ n: number }>({ durable: 'audit', filter: 'platform.>', handler: async (message) => void handled.push(message.data.n) });
    // Events of large documents, each handled at once: 48 MiB of payload.
    const body = 'x'.repeat(1024 * 1024);
    for (let n = 0; n < 48; n += 1) {
      await bus.publish(subject, { n, body }, { msgId: `m${n}` });
      await expect.poll(() => handled.length, { interval: 2 }).toBe(n + 1);
    }
    const later: number[] = [];
    await bus.subscribe<{ n: number }>({ durable: 'latecomer', filter: 'platform.>', handler: async (message) => void later.push(message.data.n) });
    await pause(200);
    expect(later.length).toBeLessThanOrEqual(Math.floor(DEFAULT_MAX_KEPT_BYTES / body.length));
    expect(later.at(-1)).toBe(47);
    await bus.close();
  });

  it('reports a durable\'s lag with each delivery, as JetStream does', async () => {
    const bus = createInProcessBus({ maxMessages: MAX_MESSAGES });
    await publishNumbers(bus, 0, 20);
    const pending: Array<number | undefined> = [];
    await bus.subscribe({ durable: 'lagging', filter: 'platform.>', handler: async (message) => void pending.push(message.pending) });
    await expect.poll(() => pending.length).toBe(MAX_MESSAGES);
    expect(pending).toEqual(Array.from({ length: MAX_MESSAGES }, (_, n) => MAX_MESSAGES - 1 - n));
    await bus.close();
  });
});
