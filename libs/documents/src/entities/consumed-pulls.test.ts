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
import { FULL_SWEEP_EVERY_MS, OutboxDrainer } from './outbox';
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

  it('reads every collection only at the start and every FULL_SWEEP_EVERY_MS; between, a sweep visits only what this process left unpublished', async () => {
    const { store, bus } = running;
    let now = Date.now();
    const logger = createLogger({ level: 'silent' });
    const history = new History(store);
    const drainer = new OutboxDrainer(store, bus, history, () => now, logger, new ConsumedPulls(store, logger));
    const writer = new EntityWriter(store, history, drainer, new UpdatedAtClock(Date.now), undefined);
    const received: string[] = [];
    await bus.subscribe({ durable: 'audit-trail', filter: 'platform.docs.>', handler: async (message) => void received.push(message.msgId) });
    for (let n = 0; n < 20; n += 1) await writer.create(scope, { title: `t${n}` }, { userId: 'u1', id: `e${n}` });
    await expect.poll(() => received.length).toBe(20);
    // Every read of a collection for entries: a scan of all its documents on the embedded store.
    const scans: string[] = [];
    const collection = store.collection.bind(store);
    store.collection = ((name: string) => {
      const found = collection(name);
      return new Proxy(found, { get: (target, property, receiver) => (property === 'count' || property === 'find' || property === 'findWithin' ? (filter: Record<string, unknown>, ...rest: unknown[]) => (JSON.stringify(filter).includes('_outbox') && scans.push(name), (target[property] as (...args: unknown[]) => unknown).call(target, filter, ...rest)) : Reflect.get(target, property, receiver)) });
    }) as typeof store.collection;

    // The start's sweep reads the collection; the periodic ones after it do not.
    expect(await drainer.sweep(0)).toBe(0);
    expect(scans).toEqual([scope.collection, scope.collection]);
    scans.length = 0;
    for (let n = 0; n < 5; n += 1) expect(await drainer.sweep()).toBe(0);
    expect(scans).toEqual([]);
    // The bus refuses one write's event: the write stands, its entry stays for the sweeper, whose next round publishes it.
    const publish = bus.publish.bind(bus);
    bus.publish = async () => {
      throw new Error('bus down');
    };
    await writer.patch(scope, 'e3', { $set: { title: 'refused' } }, { userId: 'u1', baseRevision: 0 });
    bus.publish = publish;
    expect(await drainer.sweep()).toBe(1);
    await expect.poll(() => received).toContain(`${scope.collection}/e3/1`);
    await expect.poll(async () => ((await store.collection<StoredEntity>(scope.collection).findById('e3'))?._outbox ?? []).length).toBe(0);
    expect(await drainer.sweep()).toBe(0);
    expect(scans).toEqual([]);

    now += FULL_SWEEP_EVERY_MS;
    expect(await drainer.sweep()).toBe(0);
    expect(scans).toEqual([scope.collection, scope.collection]);
  });

  it('never starts a periodic sweep while the last one still runs', async () => {
    let started = 0;
    let release = () => undefined as void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    running.drainer.sweep = async () => {
      started += 1;
      await slow;
      return 0;
    };
    running.drainer.startSweeping(10);
    await pause(150);
    expect(started).toBe(1);
    release();
    await expect.poll(() => started).toBeGreaterThan(1);
    running.drainer.stopSweeping();
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
