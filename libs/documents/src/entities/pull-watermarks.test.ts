import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus, type EventBus } from '@platform/bus';
import { createLogger, type ProjectCaller } from '@platform/kit';
import { createEmbeddedStore, wrappedAtomically, wrappedCollections, type Collection, type DocumentStore, type StoredDocument } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EntityScope, StoredEntity } from './entity';
import { EntityReader } from './entity-reader';
import { EntityWriter } from './entity-writer';
import { History } from './history';
import { OutboxDrainer } from './outbox';
import { PullWatermarks } from './pull-watermarks';
import { UpdatedAtClock } from './updated-at-clock';

const SETTLE_MS = 1_000;
const scope: EntityScope = { projectId: 'p1', typeId: 'tasks', collection: 'tenant-p1-tasks' };
const owner: ProjectCaller = { userId: 'u1', superuser: true, permissions: new Set() };

/** A data replica on the shared store, with its own clock. */
function replica(store: DocumentStore, bus: EventBus, clock: () => number, watermarks: PullWatermarks | undefined) {
  const timestamps = new UpdatedAtClock(clock, SETTLE_MS);
  const history = new History(store);
  const drainer = new OutboxDrainer(store, bus, history, clock, createLogger({ level: 'silent' }));
  return { reader: new EntityReader(store, history, timestamps, watermarks), writer: new EntityWriter(store, history, drainer, timestamps, watermarks) };
}

/** The store, holding back this replica's next entity update until `release()`. */
function heldUpdates(store: DocumentStore): { store: DocumentStore; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = (collection: Collection<StoredDocument>): Collection<StoredDocument> => {
    if (collection.name !== scope.collection) return collection;
    return Object.assign(Object.create(collection) as Collection<StoredDocument>, {
      updateOne: async (...args: Parameters<Collection<StoredDocument>['updateOne']>) => {
        await held;
        return collection.updateOne(...args);
      },
    });
  };
  // The entity's update runs in an atomic section: its collections are held too.
  const holding: DocumentStore = Object.create(store) as DocumentStore;
  holding.collection = wrappedCollections(store, hold);
  holding.atomically = wrappedAtomically(store, hold);
  return { store: holding, release };
}

describe('pull watermarks (several replicas on one store)', () => {
  let store: DocumentStore;
  let bus: EventBus;

  beforeEach(async () => {
    store = await createEmbeddedStore({ dataDir: await mkdtemp(join(tmpdir(), 'watermarks-')), fsync: false });
    bus = createInProcessBus();
  });

  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  /**
   * Replica A's clock runs 5 s behind B's, past the settle margin. A stamps a PATCH, B writes and
   * pulls while A's update is still held back, then A's update is stored: a client that pulls from
   * the largest updatedAt it saw must still get A's change.
   */
  async function pullAfterLateWrite(withWatermarks: boolean): Promise<StoredEntity[]> {
    let timeB = 1_000_000;
    const watermarks = withWatermarks ? new PullWatermarks(store) : undefined;
    const b = replica(store, bus, () => timeB, watermarks);
    const held = heldUpdates(store);
    const a = replica(held.store, bus, () => timeB - 5_000, watermarks);
    const late = await b.writer.create(scope, { title: 'late' }, { userId: 'u1' });
    const other = await b.writer.create(scope, { title: 'other' }, { userId: 'u1' });

    timeB += 10;
    const patchA = a.writer.patch(scope, late.id, { $set: { title: 'changed by A' } }, { userId: 'u1', baseRevision: 0 });
    await b.writer.patch(scope, other.id, { $set: { title: 'changed by B' } }, { userId: 'u1', baseRevision: 0 });
    timeB += 2 * SETTLE_MS;
    const first = await b.reader.pull(scope, owner, { since: 0, limit: 100 });
    const cursor = Math.max(...first.items.map((item) => item.updatedAt as number));
    expect(first.items.find((item) => item.id === other.id)?.revision).toBe(1);

    held.release();
    expect((await patchA).revision).toBe(1);
    timeB += 2 * SETTLE_MS;
    return (await b.reader.pull(scope, owner, { since: cursor, limit: 100 })).items as StoredEntity[];
  }

  it('restamps a write stored after a pull read past its stamp, so the next pull has it', async () => {
    const next = await pullAfterLateWrite(true);
    expect(next.map((item) => [item.title, item.revision])).toEqual([['changed by A', 1]]);
  });

  it('loses that write without them (what the watermark is for)', async () => {
    expect(await pullAfterLateWrite(false)).toEqual([]);
  });
});
