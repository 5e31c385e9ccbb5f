import { describe, expect, it } from 'vitest';
import { createInProcessBus } from './in-process';
import type { BusMessage, EventBus } from './port';

const subject = 'platform.docs.p1.t1.updated';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the promise has settled by now (after pending callbacks ran). */
async function settledYet(promise: Promise<unknown> | undefined): Promise<boolean> {
  let settled = false;
  void promise?.then(() => (settled = true));
  await pause(5);
  return settled;
}

/** A durable whose handler waits until `release` is called for the message it got. */
async function heldDurable(bus: EventBus, durable: string, filter = 'platform.docs.>') {
  const held = new Map<string, () => void>();
  const subscription = await bus.subscribe({
    durable,
    filter,
    retryDelayMs: 10,
    handler: (message: BusMessage) => new Promise<void>((resolve) => held.set(message.msgId, resolve)),
  });
  return { subscription, release: (msgId: string) => held.get(msgId)?.(), has: (msgId: string) => held.has(msgId) };
}

describe('in-process bus: handled', () => {
  it('resolves once every subscribed durable that matches the message has acknowledged it, not before', async () => {
    const bus = createInProcessBus();
    const audit = await heldDurable(bus, 'audit');
    const actions = await heldDurable(bus, 'actions');
    await heldDurable(bus, 'applications', 'platform.docs.*.applications.>');
    const { handled } = await bus.publish(subject, { n: 1 }, { msgId: 'm1' });
    await expect.poll(() => audit.has('m1') && actions.has('m1')).toBe(true);
    expect(await settledYet(handled)).toBe(false);
    audit.release('m1');
    expect(await settledYet(handled)).toBe(false);
    actions.release('m1');
    expect(await settledYet(handled)).toBe(true);
    await bus.close();
  });

  it('waits through a failed delivery until the retry is acknowledged', async () => {
    const bus = createInProcessBus();
    let attempts = 0;
    await bus.subscribe({
      durable: 'flaky',
      filter: 'platform.docs.>',
      retryDelayMs: 300,
      handler: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('store unreachable');
      },
    });
    const { handled } = await bus.publish(subject, {}, { msgId: 'm1' });
    await expect.poll(() => attempts).toBe(1);
    expect(await settledYet(handled)).toBe(false);
    await handled;
    expect(attempts).toBe(2);
    await bus.close();
  });

  it('resolves at once when no subscribed durable matches, and counts no durable subscribed later', async () => {
    const bus = createInProcessBus();
    const stopped = await heldDurable(bus, 'stopped');
    await stopped.subscription.stop();
    expect(await settledYet((await bus.publish(subject, {}, { msgId: 'm1' })).handled)).toBe(true);

    const later = await bus.publish(subject, {}, { msgId: 'm2' });
    const late = await heldDurable(bus, 'late');
    await expect.poll(() => late.has('m1')).toBe(true);
    expect(await settledYet(later.handled)).toBe(true);
    await bus.close();
  });

  it('answers no handled for a duplicate', async () => {
    const bus = createInProcessBus();
    await bus.publish(subject, {}, { msgId: 'm1' });
    expect(await bus.publish(subject, {}, { msgId: 'm1' })).toEqual({ duplicate: true });
    await bus.close();
  });
});
