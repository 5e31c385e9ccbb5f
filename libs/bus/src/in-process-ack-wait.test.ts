import { describe, expect, it } from 'vitest';
import { createInProcessBus } from './in-process';
import type { BusMessage } from './port';

const ACK_WAIT_MS = 400;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('in-process bus: ack wait', () => {
  it('hands back every message held past its own ack wait, however far apart the waits end', async () => {
    const bus = createInProcessBus();
    const options = { durable: 'audit', filter: 'platform.>', ackWaitMs: ACK_WAIT_MS };
    // Two subscribers that never finish what they are given.
    const held: string[] = [];
    const holding = (message: BusMessage) => {
      held.push(message.msgId);
      return new Promise<void>(() => {});
    };
    for (let n = 0; n < 2; n += 1) await bus.subscribe({ ...options, handler: holding });
    await bus.publish('platform.docs.a', {}, { msgId: 'm1' });
    // m2's wait ends half a wait after m1's: nothing else is delivered in between to wake the bus.
    await pause(ACK_WAIT_MS / 2);
    await bus.publish('platform.docs.b', {}, { msgId: 'm2' });
    await expect.poll(() => held).toEqual(['m1', 'm2']);
    await pause(ACK_WAIT_MS + ACK_WAIT_MS / 4);

    // A subscriber that joins once both waits are over is handed both, at once.
    const redelivered: Array<[string, number]> = [];
    await bus.subscribe({ ...options, handler: async (message) => void redelivered.push([message.msgId, message.deliveryCount]) });
    await expect.poll(() => redelivered, { timeout: ACK_WAIT_MS / 2 }).toEqual([
      ['m1', 2],
      ['m2', 2],
    ]);
    await bus.close();
  });

  it('working() of a delivery handed back after its ack wait does not hold up the next delivery of that message', async () => {
    const bus = createInProcessBus();
    const options = { durable: 'audit', filter: 'platform.>', ackWaitMs: ACK_WAIT_MS };
    const counts: number[] = [];
    let first: BusMessage | undefined;
    const holding = (message: BusMessage) => {
      counts.push(message.deliveryCount);
      first ??= message;
      return new Promise<void>(() => {});
    };
    for (let n = 0; n < 3; n += 1) await bus.subscribe({ ...options, handler: holding });
    await bus.publish('platform.docs.a', {}, { msgId: 'm1' });
    await expect.poll(() => counts).toEqual([1, 2]);
    // The stale first delivery keeps saying it is at it; the second's wait ends all the same.
    const stale = setInterval(() => first?.working(), ACK_WAIT_MS / 4);
    await expect.poll(() => counts, { timeout: 2 * ACK_WAIT_MS }).toEqual([1, 2, 3]);
    clearInterval(stale);
    await bus.close();
  });
});
