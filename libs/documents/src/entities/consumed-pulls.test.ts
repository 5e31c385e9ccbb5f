import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus, type BusMessage, type EventBus } from '@platform/bus';
import { createLogger } from '@platform/kit';
import { createEmbeddedStore } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsumedPulls } from './consumed-pulls';
import type { EntityScope, StoredEntity } from './entity';
import { EntityWriter } from './entity-writer';
import { History } from './history';
import { OutboxDrainer } from './outbox';
import { UpdatedAtClock } from './updated-at-clock';

const scope: EntityScope = { projectId: 'p1', typeId: 'tasks', collection: 'tenant-p1-tasks' };

/** The all-in-one's pieces on one data directory: the embedded store, the in-process bus, pulls after consumers. */
async function allInOne(dataDir: string, maxUnconsumed?: number) {
  const store = await createEmbeddedStore({ dataDir });
  const bus = createInProcessBus();
  const warnings: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) } });
  const history = new History(store);
  const drainer = new OutboxDrainer(store, bus, history, Date.now, logger, new ConsumedPulls(store, logger, maxUnconsumed));
  const writer = new EntityWriter(store, history, drainer, new UpdatedAtClock(Date.now), undefined);
  const outboxRevisions = async () => ((await store.collection<StoredEntity>(scope.collection).findById('e1'))?._outbox ?? []).map((entry) => entry.revision);
  return { store, bus, drainer, writer, warnings, outboxRevisions };
}

/** A consumer that acknowledges a message only once `release` is called for its id. */
async function heldConsumer(bus: EventBus) {
  const held = new Map<string, () => void>();
  await bus.subscribe({ durable: 'audit-trail', filter: 'platform.docs.>', handler: (message: BusMessage) => new Promise<void>((resolve) => held.set(message.msgId, resolve)) });
  return { received: () => [...held.keys()], release: (msgId: string) => held.get(msgId)?.() };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('outbox pulls after the consumers (embedded store, in-process bus)', () => {
  let dataDir: string;
  let running: Awaited<ReturnType<typeof allInOne>>;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'consumed-pulls-'));
    running = await allInOne(dataDir);
  });
  afterEach(async () => {
    await running.bus.close();
    await running.store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps a change in the outbox until its event was acknowledged, and the next write does not wait for it', async () => {
    const consumer = await heldConsumer(running.bus);
    await running.writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'e1' });
    const patched = await running.writer.patch(scope, 'e1', { $set: { title: 'b' } }, { userId: 'u1', baseRevision: 0 });
    expect(patched.revision).toBe(1);
    await expect.poll(consumer.received).toEqual([`${scope.collection}/e1/0`]);
    await pause(20);
    expect(await running.outboxRevisions()).toEqual([0, 1]);

    consumer.release(`${scope.collection}/e1/0`);
    await expect.poll(running.outboxRevisions).toEqual([1]);
    await expect.poll(consumer.received).toHaveLength(2);
    consumer.release(`${scope.collection}/e1/1`);
    await expect.poll(running.outboxRevisions).toEqual([]);
  });

  it('publishes again at the next start what the outboxes still hold, and pulls it once consumed', async () => {
    await heldConsumer(running.bus);
    await running.writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'e1' });
    await running.writer.patch(scope, 'e1', { $set: { title: 'b' } }, { userId: 'u1', baseRevision: 0 });
    await running.bus.close();
    await running.store.close();

    running = await allInOne(dataDir);
    expect(await running.outboxRevisions()).toEqual([0, 1]);
    const received: string[] = [];
    await running.bus.subscribe({ durable: 'audit-trail', filter: 'platform.docs.>', handler: async (message) => void received.push(message.msgId) });
    expect(await running.drainer.sweep(0)).toBe(1);
    await expect.poll(() => received).toEqual([`${scope.collection}/e1/0`, `${scope.collection}/e1/1`]);
    await expect.poll(running.outboxRevisions).toEqual([]);
    // Published once: a sweep while the consumer still works on them does not send them again.
    expect(await running.drainer.sweep(0)).toBe(0);
  });

  it('holds at most maxUnconsumed changes of an entity whose consumers lag, pulling the oldest with one warning', async () => {
    await running.bus.close();
    await running.store.close();
    running = await allInOne(dataDir, 2);
    await heldConsumer(running.bus);
    await running.writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'e1' });
    for (let revision = 0; revision < 4; revision += 1) await running.writer.patch(scope, 'e1', { $set: { title: `t${revision}` } }, { userId: 'u1', baseRevision: revision });
    await expect.poll(running.outboxRevisions).toEqual([3, 4]);
    const lagWarnings = running.warnings.filter((line) => String(line.msg).includes('lag'));
    expect(lagWarnings).toHaveLength(1);
    expect(lagWarnings[0]).toMatchObject({ collection: scope.collection, id: 'e1', limit: 2 });
  });
});
