import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus, type EventBus } from '@platform/bus';
import { createLogger } from '@platform/kit';
import { createEmbeddedStore, wrappedAtomically, wrappedCollections, type Collection, type DocumentStore, type EmbeddedDocumentStore, type StoredDocument } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyCollection } from '../domain/collections';
import { storeChange, type EntityScope, type StoredEntity } from './entity';
import { EntityWriter } from './entity-writer';
import { History } from './history';
import { OutboxDrainer } from './outbox';
import { UpdatedAtClock } from './updated-at-clock';

const scope: EntityScope = { projectId: 'p1', typeId: 'tasks', collection: 'tenant-p1-tasks' };

/**
 * The store with the entity collection's outbox pulls held until `release`, and every update of
 * that collection recorded when it starts and when a pull lands.
 */
function holdingPulls(inner: DocumentStore) {
  const updates: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = (collection: Collection<StoredDocument>): Collection<StoredDocument> => {
    if (collection.name !== scope.collection) return collection;
    return Object.assign(Object.create(collection) as Collection<StoredDocument>, {
      updateOne: async (...args: Parameters<Collection<StoredDocument>['updateOne']>) => {
        if (!args[1].$pull) return updates.push('update'), collection.updateOne(...args);
        updates.push('pull');
        await held;
        const pulled = await collection.updateOne(...args);
        updates.push('pull landed');
        return pulled;
      },
    });
  };
  // Writes in atomic sections too: the entity's update is one.
  const store: DocumentStore = { ...inner, collection: wrappedCollections(inner, hold), atomically: wrappedAtomically(inner, hold) };
  return { store, updates, release: () => release() };
}

type LogRecord = { c: string; put?: { id: string; revision?: number; _outbox?: Array<{ revision: number }> } };

/** The store log's lines, each as the records it holds (a group's members, or the one record). */
async function logLines(dataDir: string): Promise<LogRecord[][]> {
  const text = await readFile(join(dataDir, 'store.wal'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogRecord & { group?: LogRecord[] })
    .map((line) => line.group ?? [line]);
}

describe('EntityWriter on the embedded store', () => {
  let dataDir: string;
  let store: EmbeddedDocumentStore;
  let bus: EventBus;
  let writer: EntityWriter;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'entity-writer-'));
    store = await createEmbeddedStore({ dataDir });
    bus = createInProcessBus();
    const history = new History(store);
    const drainer = new OutboxDrainer(store, bus, history, Date.now, createLogger({ level: 'silent' }));
    writer = new EntityWriter(store, history, drainer, new UpdatedAtClock(Date.now), undefined);
  });

  afterEach(async () => {
    await bus.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes each revision of an entity, its outbox entry and its history record as one log line', async () => {
    const created = await writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'e1' });
    await writer.patch(scope, created.id, { $set: { title: 'b' } }, { userId: 'u1', baseRevision: 0 });
    await writer.patch(scope, created.id, { $set: { title: 'c' } }, { userId: 'u1', baseRevision: 1 });
    await store.close();

    const lines = await logLines(dataDir);
    for (const revision of [0, 1, 2]) {
      // The line that first holds the entity at this revision, with the change in its outbox.
      const line = lines.find((records) => records.some((record) => record.c === scope.collection && record.put?.revision === revision && record.put._outbox?.some((entry) => entry.revision === revision)));
      expect({ revision, history: line?.some((record) => record.c === historyCollection(scope.collection) && record.put?.id === `e1:${revision}`) }).toEqual({ revision, history: true });
    }
  });

  it("explains a conflict from the changes the process keeps, and omits its details without reading history when the gate declines", async () => {
    const historyReads: unknown[] = [];
    const counting = (collection: Collection<StoredDocument>): Collection<StoredDocument> => {
      if (collection.name !== historyCollection(scope.collection)) return collection;
      return Object.assign(Object.create(collection) as Collection<StoredDocument>, {
        find: (...args: Parameters<Collection<StoredDocument>['find']>) => (historyReads.push(args[0]), collection.find(...args)),
      });
    };
    const countingStore: DocumentStore = { ...store, collection: wrappedCollections(store, counting), atomically: wrappedAtomically(store, counting) };
    const history = new History(countingStore);
    const keptWriter = new EntityWriter(countingStore, history, new OutboxDrainer(countingStore, bus, history, Date.now, createLogger({ level: 'silent' })), new UpdatedAtClock(Date.now), undefined);
    await keptWriter.create(scope, { title: 'a' }, { userId: 'u1', id: 'kept' });
    await keptWriter.patch(scope, 'kept', { $set: { title: 'b' } }, { userId: 'u1', baseRevision: 0 });
    await keptWriter.patch(scope, 'kept', { $set: { note: 'c' } }, { userId: 'u1', baseRevision: 1 });
    const current = (await store.collection(scope.collection).findById('kept')) as StoredEntity;
    historyReads.length = 0;

    const asked: number[] = [];
    const explained = await keptWriter.conflict(scope, current, { $set: { title: 'mine' } }, 0, undefined, (revisions) => (asked.push(revisions), true));
    expect(explained).toMatchObject({ statusCode: 409, details: { baseRevision: 0, currentRevision: 2, fields: [{ path: 'title', base: 'a', theirs: 'b', mine: 'mine', serverTouched: true }] } });
    expect((explained as { details: { changesSince: unknown[] } }).details.changesSince).toHaveLength(2);
    expect(asked).toEqual([3]);
    const declined = await keptWriter.conflict(scope, current, { $set: { title: 'mine' } }, 0, undefined, () => false);
    expect(declined).toMatchObject({ statusCode: 409, code: 'DATA_REVISION_CONFLICT', details: { baseRevision: 0, currentRevision: 2, detailsOmitted: true } });
    expect(historyReads).toEqual([]);
  });

  it('writes an entity again only once the outbox pull of its last write has landed', async () => {
    // On a store that updates a document by reading and replacing it (the MongoDB-compatible test
    // server), a pull overlapping the next write put the document back and the write's revision was lost.
    const holding = holdingPulls(store);
    const history = new History(holding.store);
    const drainer = new OutboxDrainer(holding.store, bus, history, Date.now, createLogger({ level: 'silent' }));
    const holdingWriter = new EntityWriter(holding.store, history, drainer, new UpdatedAtClock(Date.now), undefined);
    const created = await holdingWriter.create(scope, { title: 'a' }, { userId: 'u1', id: 'e3' });
    const patched = holdingWriter.patch(scope, created.id, { $set: { title: 'b' } }, { userId: 'u1', baseRevision: created.revision });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(holding.updates).toEqual(['pull']);

    holding.release();
    expect((await patched).revision).toBe(1);
    expect(holding.updates.slice(0, 3)).toEqual(['pull', 'pull landed', 'update']);
    await drainer.settled();
    expect(await store.collection(scope.collection).findById('e3')).toMatchObject({ revision: 1, title: 'b', _outbox: [] });
  });

  it('writes the preceding writes in the same line as the entity', async () => {
    await writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'e2', preceding: (section) => section.collection('ledger').insertOne({ id: 'e2' }) });
    await store.close();
    const line = (await logLines(dataDir)).find((records) => records.some((record) => record.c === scope.collection && record.put?.id === 'e2'));
    expect(line?.filter((record) => record.put).map((record) => record.c).sort()).toEqual(['ledger', historyCollection(scope.collection), scope.collection].sort());
  });

  it("carries an action write's depth and chain to its event, also when the sweeper publishes it, and never into history", async () => {
    const events: Array<Record<string, any>> = [];
    await bus.subscribe({ durable: 'depth', filter: 'platform.docs.>', handler: async (message) => void events.push(message.data as Record<string, any>) });
    await writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'chain' });
    await writer.patch(scope, 'chain', { $set: { title: 'b' } }, { userId: 'u1', baseRevision: 0, actionCause: { actionDepth: 2, actionChain: 'root/event/1' } });
    await expect.poll(() => events.length).toBe(2);
    expect(events.map((event) => [event.actionDepth, event.actionChain])).toEqual([
      [undefined, undefined],
      [2, 'root/event/1'],
    ]);
    expect(Object.keys(events[1]!.change).sort()).toEqual(['baseRevision', 'modifier', 'timestamp', 'userId']);
    const history = new History(store);
    const internal = expect.not.objectContaining({ actionDepth: expect.anything(), actionChain: expect.anything() });
    expect(await history.changes(scope.collection, { id: 'chain', revision: 1 })).toEqual([internal, internal]);
    expect((await store.collection(historyCollection(scope.collection)).find({ entityId: 'chain' })).map((record) => 'actionDepth' in record || 'actionChain' in record)).toEqual([false, false]);

    // An entry left in the outbox (a publish refused, a crash) is published again by the sweeper with its depth.
    const entity = (await store.collection<StoredEntity>(scope.collection).findById('chain')) as StoredEntity;
    const left = { ...storeChange({ userId: 'u1', timestamp: Date.now(), baseRevision: 1, modifier: { $set: { title: 'c' } }, revision: 2, actionDepth: 3, actionChain: 'root/event/1' }) };
    await store.collection(scope.collection).updateOne({ id: 'chain' }, { $set: { title: 'c', revision: 2, _outbox: [left] } });
    const drainer = new OutboxDrainer(store, bus, history, Date.now, createLogger({ level: 'silent' }));
    expect(await drainer.drain(scope, { ...entity, title: 'c', revision: 2, _outbox: [left] })).toBe(true);
    await expect.poll(() => events.length).toBe(3);
    expect(events[2]).toMatchObject({ revision: 2, actionDepth: 3, actionChain: 'root/event/1' });
    expect(await store.collection(historyCollection(scope.collection)).findById('chain:2')).toEqual(internal);
  });

  describe('answers for the caller who wrote', () => {
    const reader = { userId: 'u2', superuser: false, permissions: new Set<string>() };
    const onlyOwner = { read: { userIds: ['u1'] } };
    /** A write that lands between the caller's read and its guarded update, taking the caller's read access. */
    const accessTakenMeanwhile = (id: string) => async (section: Parameters<NonNullable<Parameters<EntityWriter['patch']>[3]['preceding']>>[0]) => {
      await section.collection(scope.collection).updateOne({ id }, { $set: { revision: 1, secret: 'meanwhile', access: onlyOwner } });
    };

    it("answers a conflict's details only to a reader who may still read the entity, and a 404 to one who may not", async () => {
      await writer.create(scope, { title: 'open' }, { userId: 'u1', id: 'race' });
      const refused = writer.patch(scope, 'race', { $set: { title: 'mine' } }, { userId: 'u2', baseRevision: 0, reader, preceding: accessTakenMeanwhile('race') });
      await expect(refused).rejects.toMatchObject({ statusCode: 404, code: 'DATA_ENTITY_NOT_FOUND' });
      await expect(refused).rejects.not.toHaveProperty('details.current');

      const owner = { userId: 'u1', superuser: false, permissions: new Set<string>() };
      await expect(writer.patch(scope, 'race', { $set: { title: 'mine' } }, { userId: 'u1', baseRevision: 0, reader: owner })).rejects.toMatchObject({
        statusCode: 409,
        details: { currentRevision: 1, current: { secret: 'meanwhile' } },
      });
    });

    it('answers 400 for a modifier sent on an old revision that cannot apply to it, as it would on the current one', async () => {
      await writer.create(scope, { title: 'a' }, { userId: 'u1', id: 'stale' });
      await writer.patch(scope, 'stale', { $set: { title: 'b' } }, { userId: 'u1', baseRevision: 0 });
      const current = (await store.collection(scope.collection).findById('stale')) as StoredEntity;
      expect(await writer.conflict(scope, current, { $set: { a: 1, 'a.b': 2 } }, 0)).toMatchObject({ statusCode: 400, code: 'DATA_INVALID_MODIFIER' });
      expect(await writer.conflict(scope, current, { $set: { a: 1 } }, 0)).toMatchObject({ statusCode: 409, code: 'DATA_REVISION_CONFLICT' });
    });

    it('tells only a reader who may read a deleted entity that its id was deleted', async () => {
      const hidden = await writer.create(scope, { title: 'x', access: onlyOwner }, { userId: 'u1', id: 'gone' });
      await writer.remove(scope, hidden, 'u1');
      await expect(writer.create(scope, { title: 'y' }, { userId: 'u2', id: 'gone', reader })).rejects.toMatchObject({ statusCode: 409, code: 'DATA_DUPLICATE_ID', details: { id: 'gone' } });
      await expect(writer.create(scope, { title: 'y' }, { userId: 'u2', id: 'gone', reader })).rejects.not.toHaveProperty('details.deleted');
      const owner = { userId: 'u1', superuser: false, permissions: new Set<string>() };
      await expect(writer.create(scope, { title: 'y' }, { userId: 'u1', id: 'gone', reader: owner })).rejects.toMatchObject({ details: { id: 'gone', deleted: true } });
    });
  });
});
