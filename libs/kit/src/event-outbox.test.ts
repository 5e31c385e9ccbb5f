import { createInProcessBus, type EventBus } from '@platform/bus';
import { temporaryEmbeddedStore, type TemporaryStore } from '@platform/storage/testing';
import { metricsText } from '@platform/telemetry';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventOutbox } from './event-outbox';
import { createLogger } from './logger';

const OUTBOX = 'test-outbox';

describe('EventOutbox', () => {
  let temporary: TemporaryStore;
  let bus: EventBus;
  let now: number;
  let busDown: boolean;
  let received: Array<{ subject: string; data: unknown }>;
  let outbox: EventOutbox;

  beforeEach(async () => {
    temporary = await temporaryEmbeddedStore('event-outbox');
    const inProcess = createInProcessBus();
    busDown = false;
    bus = { ...inProcess, publish: (subject, data, options) => (busDown ? Promise.reject(new Error('bus unavailable')) : inProcess.publish(subject, data, options)) };
    received = [];
    await inProcess.subscribe({ durable: 'test', filter: 'things.>', handler: async ({ subject, data }) => void received.push({ subject, data }) });
    now = 1_000_000;
    outbox = new EventOutbox({ store: temporary.store, bus, clock: () => now, logger: createLogger({ level: 'silent' }) }, OUTBOX);
    await outbox.ensureIndexes();
  });

  afterEach(async () => {
    outbox.stop();
    await bus.close();
    await temporary.dispose();
  });

  const waiting = () => temporary.store.collection(OUTBOX).count();
  const message = (n: number) => ({ subject: `things.${n}`, msgId: `thing-${n}`, data: { n } });

  it('publishes each message at once and keeps nothing waiting', async () => {
    await outbox.publish([message(1), message(2)]);
    await vi.waitFor(() => expect(received).toEqual([{ subject: 'things.1', data: { n: 1 } }, { subject: 'things.2', data: { n: 2 } }]));
    // Gone once its consumers have handled it.
    await vi.waitFor(async () => expect(await waiting()).toBe(0));
    await outbox.publish([]);
    expect(await waiting()).toBe(0);
  });

  it("keeps a message on the in-process bus until its consumers have handled it, and the sweep does not send it again meanwhile", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow: string[] = [];
    await bus.subscribe({ durable: 'slow', filter: 'slow.>', handler: async ({ subject }) => (slow.push(subject), await released) });
    await outbox.publish([{ subject: 'slow.1', msgId: 'slow-1', data: {} }]);
    await vi.waitFor(() => expect(slow).toEqual(['slow.1']));
    // Held by its consumer: a process stopping now would send it again at its next start.
    expect(await waiting()).toBe(1);
    now += 10_000;
    expect(await outbox.sweep()).toBe(1);
    release();
    await vi.waitFor(async () => expect(await waiting()).toBe(0));
    expect(slow).toEqual(['slow.1']);
  });

  it('drops the waiting messages of a purged project, and only those', async () => {
    busDown = true;
    await outbox.publish([{ subject: 'things.1', msgId: 'p-1', data: { projectId: 'purged' } }, { subject: 'things.2', msgId: 'k-1', data: { projectId: 'kept' } }, { subject: 'things.3', msgId: 'p-2', data: { projectId: 'purged' } }]);
    expect(await outbox.eraseProject('purged')).toBe(2);
    busDown = false;
    now += 10_000;
    expect(await outbox.sweep()).toBe(1);
    await vi.waitFor(() => expect(received).toEqual([{ subject: 'things.2', data: { projectId: 'kept' } }]));
    expect(await outbox.eraseProject('purged')).toBe(0);
  });

  it('keeps what the bus refused, and the sweep publishes it once it is older than its request', async () => {
    busDown = true;
    await outbox.publish([message(1), message(2)]);
    expect(await waiting()).toBe(2);
    expect(received).toEqual([]);

    busDown = false;
    // Within its request's time: the request may yet be publishing it itself.
    expect(await outbox.sweep()).toBe(0);
    expect(await metricsText()).toContain(`platform_event_outbox_waiting{outbox="${OUTBOX}"} 2`);
    now += 10_000;
    expect(await outbox.sweep()).toBe(2);
    await vi.waitFor(() => expect(received.map(({ subject }) => subject).sort()).toEqual(['things.1', 'things.2']));
    expect(await waiting()).toBe(0);
    expect(await outbox.sweep()).toBe(0);
    expect(await metricsText()).toContain(`platform_event_outbox_waiting{outbox="${OUTBOX}"} 0`);
  });

  it('publishes a message once however often it is swept: the message id makes a repeat a no-op on the bus', async () => {
    busDown = true;
    await outbox.publish([message(1)]);
    busDown = false;
    now += 10_000;
    await Promise.all([outbox.sweep(), outbox.sweep()]);
    await outbox.publish([message(3)]);
    await vi.waitFor(() => expect(received.map(({ subject }) => subject)).toContain('things.3'));
    expect(received.filter(({ subject }) => subject === 'things.1')).toHaveLength(1);
  });
});
