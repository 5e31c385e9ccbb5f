import { createInProcessBus, type BusMessage, type EventBus } from '@platform/bus';
import { createLogger } from '@platform/kit';
import { temporaryEmbeddedStore, temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { outboxBacklog } from '@platform/telemetry';
import { describeWithBackend } from '@platform/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeChange, type EntityScope, type StoredEntity } from './entity';
import { History } from './history';
import { HOLDS_OUTBOX_ENTRIES, OutboxDrainer } from './outbox';

const scope: EntityScope = { projectId: 'p1', typeId: 'tasks', collection: 'tenant-p1-tasks' };
const now = 1_000_000;
const entry = (revision: number) => storeChange({ userId: 'u1', timestamp: now, baseRevision: revision - 1, modifier: { $set: { title: `t${revision}` } }, revision });
const backlog = async () => (await outboxBacklog.get()).values[0]?.value;

/**
 * The sweep without consumed pulls (MongoDB's, every 5 s on every data replica): it finds the
 * entities holding entries, and only them, through the filter the `_outbox.revision` index serves.
 */
function runSweepSuite(open: () => Promise<TemporaryStore>) {
  let temporary: TemporaryStore;
  let bus: EventBus;
  let published: string[];

  beforeEach(async () => {
    temporary = await open();
    bus = createInProcessBus();
    published = [];
    await bus.subscribe({ durable: 'seen', filter: 'platform.docs.>', handler: async (message: BusMessage) => void published.push(message.msgId) });
  });
  afterEach(async () => {
    await bus.close();
    await temporary.dispose();
  });

  it('publishes what entities hold past the grace, counts every entity holding entries, and leaves the rest unread', async () => {
    const { store } = temporary;
    const drainer = new OutboxDrainer(store, bus, new History(store), () => now, createLogger({ level: 'silent' }));
    await drainer.register(scope);
    const entities = store.collection<StoredEntity>(scope.collection);
    const stored = (id: string, revision: number, updatedAt: number, outbox?: ReturnType<typeof entry>[]) =>
      entities.insertOne({ id, revision, createdAt: now - 60_000, updatedAt, createdBy: 'u1', updatedBy: 'u1', title: id, ...(outbox ? { _outbox: outbox } : {}) } as StoredEntity);
    await stored('never', 0, now - 60_000);
    await stored('emptied', 3, now - 60_000, []);
    await stored('one', 0, now - 60_000, [entry(0)]);
    await stored('two', 5, now - 60_000, [entry(4), entry(5)]);
    await stored('fresh', 1, now - 500, [entry(1)]);

    expect((await entities.find(HOLDS_OUTBOX_ENTRIES)).map((entity) => entity.id).sort()).toEqual(['fresh', 'one', 'two']);
    expect(await drainer.sweep(2_000)).toBe(2);
    expect(await backlog()).toBe(3);
    await expect.poll(() => [...published].sort()).toEqual([`${scope.collection}/one/0`, `${scope.collection}/two/4`, `${scope.collection}/two/5`]);
    expect((await entities.find(HOLDS_OUTBOX_ENTRIES)).map((entity) => entity.id)).toEqual(['fresh']);

    // The next sweep finds only the entity still in its grace; past it, that one too.
    expect(await drainer.sweep(2_000)).toBe(0);
    expect(await backlog()).toBe(1);
    expect(await drainer.sweep(0)).toBe(1);
    await expect.poll(() => published.length).toBe(4);
    expect(await entities.count(HOLDS_OUTBOX_ENTRIES)).toBe(0);
  });
}

describe('outbox sweep (embedded store)', () => runSweepSuite(() => temporaryEmbeddedStore('outbox-sweep')));
describeWithBackend('mongo', 'outbox sweep (MongoDB)', ({ url }) => runSweepSuite(() => temporaryMongoStore(url, 'outbox_sweep')));
