import { randomBytes } from 'node:crypto';
import { describeWithBackend } from '@platform/testkit';
import { expect, it } from 'vitest';
import { createNatsBus } from './nats';

describeWithBackend('nats', 'JetStream adapter: consumer lag', ({ url }) => {
  it('reports with each delivery how many messages of the durable still wait behind it', async () => {
    const tag = `lag${randomBytes(4).toString('hex')}`;
    const bus = await createNatsBus({ url, stream: tag.toUpperCase(), subjects: [`${tag}.>`] });
    try {
      for (const n of [1, 2, 3]) await bus.publish(`${tag}.item`, { n }, { msgId: `${tag}-${n}` });
      const pending: Array<number | undefined> = [];
      const subscription = await bus.subscribe({ durable: `${tag}-reader`, filter: `${tag}.>`, handler: async (message) => void pending.push(message.pending) });
      await expect.poll(() => pending.length).toBe(3);
      await subscription.stop();
      expect(pending).toEqual([2, 1, 0]);
    } finally {
      await bus.close();
    }
  });
});
