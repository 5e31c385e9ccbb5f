import { describe, expect, it } from 'vitest';
import { createInProcessBus } from './in-process';

/** Counts turns of the event loop until `done` answers true (each turn yields to I/O once). */
async function turnsUntil(done: () => boolean, limit: number): Promise<number> {
  let turns = 0;
  while (!done() && turns < limit) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    turns += 1;
  }
  return turns;
}

describe('in-process bus: pace of a durable', () => {
  it('hands a subscriber its next message as soon as it finishes one, not one message per turn of the event loop', async () => {
    const bus = createInProcessBus();
    let handled = 0;
    await bus.subscribe({ durable: 'notifier', filter: 'platform.>', handler: async () => void (handled += 1) });
    const messages = 600;
    for (let n = 0; n < messages; n += 1) await bus.publish('platform.docs.a', { n }, { msgId: `m${n}` });

    // Under load each turn of the loop also serves every socket; a message per turn let a
    // busy server's consumers fall further behind with every write (BENCHMARKS.md, Documents).
    const turns = await turnsUntil(() => handled === messages, messages);
    expect(handled).toBe(messages);
    expect(turns).toBeLessThan(messages / 20);
    await bus.close();
  });

  it('still yields to the event loop between long runs of deliveries', async () => {
    const bus = createInProcessBus();
    let handled = 0;
    await bus.subscribe({ durable: 'notifier', filter: 'platform.>', handler: async () => void (handled += 1) });
    for (let n = 0; n < 600; n += 1) await bus.publish('platform.docs.a', { n }, { msgId: `m${n}` });
    // One turn of the loop: a timer or a socket waiting behind the consumer gets its turn first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(handled).toBeGreaterThan(0);
    expect(handled).toBeLessThan(600);
    await bus.close();
  });
});
