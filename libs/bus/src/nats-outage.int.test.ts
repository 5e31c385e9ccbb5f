import { randomUUID } from 'node:crypto';
import { describeWithOwnServer } from '@platform/testkit';
import { expect, it } from 'vitest';
import { createNatsBus } from './nats';
import type { BusMessage } from './port';

describeWithOwnServer('nats', 'JetStream adapter across crashes and restarts', (ownServer) => {
  it('redelivers the unacknowledged message of a crashed consumer to its replica', async () => {
    const url = ownServer().url;
    const crashing = await createNatsBus({ url });
    const replica = await createNatsBus({ url });
    const seen: string[] = [];
    await crashing.subscribe({
      durable: 'crash',
      filter: 'platform.crash.>',
      ackWaitMs: 1000,
      handler: async (message) => {
        seen.push(`crashing:${String(message.data)}`);
        // Simulates a process that dies mid-handler: the connection goes away without an ack.
        await crashing.close();
        throw new Error('died');
      },
    });
    await crashing.publish('platform.crash.one', 'job', { msgId: randomUUID() });
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual(['crashing:job']);

    const rescued: BusMessage[] = [];
    await replica.subscribe({ durable: 'crash', filter: 'platform.crash.>', ackWaitMs: 1000, handler: async (message) => void rescued.push(message) });
    await expect.poll(() => rescued.length, { timeout: 10_000 }).toBe(1);
    expect(rescued[0]).toMatchObject({ data: 'job' });
    expect(rescued[0]?.deliveryCount).toBeGreaterThanOrEqual(2);
    await replica.close();
  }, 30_000);

  it('keeps the stream and durable across a server restart and goes on delivering', async () => {
    const server = ownServer();
    const bus = await createNatsBus({ url: server.url });
    const received: unknown[] = [];
    await bus.subscribe({ durable: 'restart', filter: 'platform.restart.>', handler: async (message) => void received.push(message.data) });
    await bus.publish('platform.restart.x', 'before', { msgId: 'restart-1' });
    await expect.poll(() => received, { timeout: 10_000 }).toEqual(['before']);

    await server.restart();
    await expect.poll(() => bus.ping(), { timeout: 15_000, interval: 200 }).toBe(true);
    await expect.poll(async () => bus.publish('platform.restart.x', 'after', { msgId: 'restart-2' }).then(() => true, () => false), { timeout: 15_000, interval: 300 }).toBe(true);
    // The de-duplication window survived the restart too.
    expect(await bus.publish('platform.restart.x', 'again', { msgId: 'restart-1' })).toEqual({ duplicate: true });
    await expect.poll(() => received, { timeout: 20_000, interval: 200 }).toEqual(['before', 'after']);
    await bus.close();
  }, 60_000);
});
