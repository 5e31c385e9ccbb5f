import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage, EventBus } from './port';
import { whileWorking } from './heartbeat';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects what a subscription receives, so tests can wait for a count. */
function collector<T = unknown>() {
  const received: BusMessage<T>[] = [];
  return {
    received,
    handler: async (message: BusMessage<T>) => {
      received.push(message);
    },
    until: (count: number) => expect.poll(() => received.length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(count),
  };
}

/** The one EventBus contract; every adapter passes it unchanged. Each test uses its own subjects and durables. */
export function runEventBusContract(adapter: string, open: () => Promise<EventBus>): void {
  describe(`EventBus contract: ${adapter}`, () => {
    let bus: EventBus;
    const names = () => {
      const token = randomUUID().replaceAll('-', '');
      return { subject: (leaf: string) => `platform.test.${token}.${leaf}`, durable: (name: string) => `${name}_${token}` };
    };
    beforeAll(async () => {
      bus = await open();
    });
    afterAll(async () => {
      await bus?.close();
    });

    it('answers its kind and a ping', async () => {
      expect(['nats', 'in-process']).toContain(bus.kind);
      expect(await bus.ping()).toBe(true);
    });

    it('delivers subject, message id, data and headers to a durable subscriber', async () => {
      const { subject, durable } = names();
      const inbox = collector<{ n: number }>();
      const subscription = await bus.subscribe({ durable: durable('a'), filter: subject('>'), handler: inbox.handler });
      const before = Date.now();
      expect(await bus.publish(subject('one'), { n: 1 }, { msgId: 'm1', headers: { 'x-request-id': 'r1' } })).toMatchObject({ duplicate: false });
      const after = Date.now();
      await inbox.until(1);
      // With the durable's lag (nothing waits behind this one) and when the bus stored it (the server's clock: this host's, give or take a millisecond of rounding).
      expect(inbox.received[0]).toEqual({ subject: subject('one'), msgId: 'm1', data: { n: 1 }, headers: { 'x-request-id': 'r1' }, deliveryCount: 1, pending: 0, publishedAt: expect.any(Number), working: expect.any(Function) });
      expect(inbox.received[0]!.publishedAt).toBeGreaterThanOrEqual(before - 1);
      expect(inbox.received[0]!.publishedAt).toBeLessThanOrEqual(after + 1);
      await subscription.stop();
    });

    it('drops a second publish with the same message id', async () => {
      const { subject, durable } = names();
      expect(await bus.publish(subject('x'), { n: 1 }, { msgId: `dup-${subject('x')}` })).toMatchObject({ duplicate: false });
      expect(await bus.publish(subject('x'), { n: 2 }, { msgId: `dup-${subject('x')}` })).toEqual({ duplicate: true });
      await bus.publish(subject('x'), { n: 3 }, { msgId: `other-${subject('x')}` });
      const inbox = collector<{ n: number }>();
      const subscription = await bus.subscribe({ durable: durable('d'), filter: subject('>'), handler: inbox.handler });
      await inbox.until(2);
      await pause(200);
      expect(inbox.received.map((message) => message.data.n)).toEqual([1, 3]);
      await subscription.stop();
    });

    it('filters subjects with wildcards and starts a new durable from the oldest kept message', async () => {
      const { subject, durable } = names();
      await bus.publish(subject('docs.created'), 'early', { msgId: randomUUID() });
      await bus.publish(subject('docs.removed'), 'skip', { msgId: randomUUID() });
      await bus.publish(subject('audit.created'), 'audit', { msgId: randomUUID() });
      const inbox = collector<string>();
      const subscription = await bus.subscribe({ durable: durable('f'), filter: subject('*.created'), handler: inbox.handler });
      await bus.publish(subject('docs.created'), 'late', { msgId: randomUUID() });
      await inbox.until(3);
      await pause(200);
      expect(inbox.received.map((message) => message.data)).toEqual(['early', 'audit', 'late']);
      await subscription.stop();
    });

    it('shares a durable between subscribers: each message is handled once', async () => {
      const { subject, durable } = names();
      const first = collector<number>();
      const second = collector<number>();
      const a = await bus.subscribe({ durable: durable('shared'), filter: subject('>'), handler: first.handler });
      const b = await bus.subscribe({ durable: durable('shared'), filter: subject('>'), handler: second.handler });
      for (let n = 0; n < 20; n += 1) await bus.publish(subject('n'), n, { msgId: randomUUID() });
      await expect.poll(() => first.received.length + second.received.length, { timeout: 10_000 }).toBe(20);
      await pause(300);
      const all = [...first.received, ...second.received].map((message) => message.data).sort((x, y) => x - y);
      expect(all).toEqual(Array.from({ length: 20 }, (_, n) => n));
      await Promise.all([a.stop(), b.stop()]);
    });

    it('resumes a durable where it stopped: acknowledged messages do not come back', async () => {
      const { subject, durable } = names();
      const before = collector<number>();
      const first = await bus.subscribe({ durable: durable('resume'), filter: subject('>'), handler: before.handler });
      await bus.publish(subject('n'), 1, { msgId: randomUUID() });
      await before.until(1);
      await first.stop();
      await bus.publish(subject('n'), 2, { msgId: randomUUID() });
      const after = collector<number>();
      const second = await bus.subscribe({ durable: durable('resume'), filter: subject('>'), handler: after.handler });
      await after.until(1);
      await pause(200);
      expect(after.received.map((message) => message.data)).toEqual([2]);
      await second.stop();
    });

    it('redelivers a message whose handler failed, counting deliveries', async () => {
      const { subject, durable } = names();
      const attempts: number[] = [];
      const subscription = await bus.subscribe({
        durable: durable('retry'),
        filter: subject('>'),
        retryDelayMs: 50,
        handler: async (message) => {
          attempts.push(message.deliveryCount);
          if (message.deliveryCount < 3) throw new Error('not yet');
        },
      });
      await bus.publish(subject('x'), {}, { msgId: randomUUID() });
      await expect.poll(() => attempts, { timeout: 10_000 }).toEqual([1, 2, 3]);
      await pause(300);
      expect(attempts).toEqual([1, 2, 3]);
      await subscription.stop();
    });

    it('redelivers to another subscriber when a handler outlives the ack wait', async () => {
      const { subject, durable } = names();
      const stuck: BusMessage[] = [];
      const healthy = collector();
      const hanging = await bus.subscribe({
        durable: durable('ackwait'),
        filter: subject('>'),
        ackWaitMs: 1000,
        handler: (message) => {
          stuck.push(message);
          return new Promise<void>(() => undefined);
        },
      });
      await bus.publish(subject('x'), 'work', { msgId: randomUUID() });
      await expect.poll(() => stuck.length, { timeout: 10_000 }).toBe(1);
      const rescuer = await bus.subscribe({ durable: durable('ackwait'), filter: subject('>'), ackWaitMs: 1000, handler: healthy.handler });
      await healthy.until(1);
      expect(healthy.received[0]?.data).toBe('work');
      expect(healthy.received[0]?.deliveryCount).toBeGreaterThanOrEqual(2);
      await Promise.all([rescuer.stop(), hanging.stop()]);
    }, 20_000);

    it('does not redeliver a message whose handler outlasts the ack wait while it signals working()', async () => {
      const { subject, durable } = names();
      const deliveries: number[] = [];
      const options = { durable: durable('working'), filter: subject('>'), ackWaitMs: 1000 };
      const handler = async (message: BusMessage) => {
        deliveries.push(message.deliveryCount);
        // Three ack waits of work, saying so every third of a wait.
        await whileWorking(message, () => pause(3000), options.ackWaitMs);
        message.working(); // once handled, nothing changes
      };
      // Two subscribers: a redelivery would have one to go to.
      const subscriptions = [await bus.subscribe({ ...options, handler }), await bus.subscribe({ ...options, handler })];
      await bus.publish(subject('x'), 'long', { msgId: randomUUID() });
      await expect.poll(() => deliveries.length, { timeout: 10_000 }).toBe(1);
      await pause(4500);
      expect(deliveries).toEqual([1]);
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    }, 20_000);

    it('broadcasts live to every matching listener, and replays nothing to a later one', async () => {
      const token = randomUUID().replaceAll('-', '');
      const live = (leaf: string) => `live.test.${token}.${leaf}`;
      const first: unknown[] = [];
      const second: unknown[] = [];
      const listeners = await Promise.all([
        bus.listen(live('*'), (message) => first.push([message.subject, message.data])),
        bus.listen(live('a'), (message) => second.push([message.subject, message.data])),
      ]);
      await bus.broadcast(live('a'), { n: 1 });
      await bus.broadcast(live('b'), { n: 2 });
      await expect.poll(() => first.length, { timeout: 10_000, interval: 20 }).toBe(2);
      await expect.poll(() => second.length, { timeout: 10_000, interval: 20 }).toBe(1);
      expect(first).toEqual([[live('a'), { n: 1 }], [live('b'), { n: 2 }]]);
      const late: unknown[] = [];
      const lateListener = await bus.listen(live('>'), (message) => late.push(message.data));
      await pause(200);
      expect(late).toEqual([]);
      await Promise.all([...listeners, lateListener].map((listener) => listener.stop()));
      await bus.broadcast(live('a'), { n: 3 });
      await pause(200);
      expect(first).toHaveLength(2);
    });
  });
}
