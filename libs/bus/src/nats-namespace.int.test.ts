import { randomUUID } from 'node:crypto';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNatsBus } from './nats';
import type { BusMessage, EventBus, LiveMessage } from './port';

/**
 * Two deployments on one NATS server (NATS_NAMESPACE): the same durable name and the same subjects
 * in each never hand one deployment's events to the other, and live broadcasts stay apart too.
 */
describeWithBackend('nats', 'JetStream adapter with namespaces', ({ url }) => {
  const token = randomUUID().replaceAll('-', '').slice(0, 12);
  let staging: EventBus;
  let production: EventBus;

  beforeAll(async () => {
    [staging, production] = await Promise.all([createNatsBus({ url, namespace: `staging_${token}` }), createNatsBus({ url, namespace: `production_${token}` })]);
  });
  afterAll(async () => {
    await Promise.all([staging?.close(), production?.close()]);
  });

  it('gives each namespace its own events under the same durable name and subjects', async () => {
    const received = { staging: [] as BusMessage[], production: [] as BusMessage[] };
    const subscriptions = await Promise.all([
      staging.subscribe({ durable: 'audit', filter: 'platform.docs.>', handler: async (message) => void received.staging.push(message) }),
      production.subscribe({ durable: 'audit', filter: 'platform.docs.>', handler: async (message) => void received.production.push(message) }),
    ]);
    try {
      for (let index = 0; index < 5; index++) {
        await staging.publish(`platform.docs.p.t.${index}`, { from: 'staging', index }, { msgId: `s-${token}-${index}` });
        await production.publish(`platform.docs.p.t.${index}`, { from: 'production', index }, { msgId: `p-${token}-${index}` });
      }
      await expect.poll(() => received.staging.length + received.production.length, { timeout: 10_000, interval: 20 }).toBe(10);
      // Subjects arrive as the platform named them, without the namespace.
      expect(received.staging.map((message) => [message.subject, message.data])).toEqual([0, 1, 2, 3, 4].map((index) => [`platform.docs.p.t.${index}`, { from: 'staging', index }]));
      expect(received.production.map((message) => [message.subject, message.data])).toEqual([0, 1, 2, 3, 4].map((index) => [`platform.docs.p.t.${index}`, { from: 'production', index }]));
    } finally {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    }
  });

  it('keeps live broadcasts within their namespace', async () => {
    const heard = { staging: [] as LiveMessage[], production: [] as LiveMessage[] };
    const listeners = await Promise.all([
      staging.listen('platform.live.>', (message) => void heard.staging.push(message)),
      production.listen('platform.live.>', (message) => void heard.production.push(message)),
    ]);
    try {
      await staging.broadcast('platform.live.a', { from: 'staging' });
      await production.broadcast('platform.live.a', { from: 'production' });
      await expect.poll(() => heard.staging.length + heard.production.length, { timeout: 5_000, interval: 20 }).toBe(2);
      expect(heard).toEqual({ staging: [{ subject: 'platform.live.a', data: { from: 'staging' } }], production: [{ subject: 'platform.live.a', data: { from: 'production' } }] });
    } finally {
      await Promise.all(listeners.map((listener) => listener.stop()));
    }
  });

  it('refuses a namespace that is not one subject token', async () => {
    await expect(createNatsBus({ url, namespace: 'a.b' })).rejects.toThrow(/namespace "a.b" must be 1 to 32 letters, digits, _ or -/);
  });
});
