import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECTS_COLLECTION, type Access } from '@platform/contracts';
import { createEmbeddedStore, type DocumentStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrailEntry } from './trail-item';
import { TrailStore } from './trail-store';

let dataDir: string;
let store: DocumentStore;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'trail-store-'));
  store = await createEmbeddedStore({ dataDir });
});

afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

function entry(entityId: string, revision: number): TrailEntry {
  return {
    id: `c/${entityId}/${revision}`,
    projectId: 'p',
    entityKey: `c/${entityId}`,
    revision,
    entityId,
    entityTitle: entityId,
    entityTypeId: 't',
    entityTypeName: 'T',
    changeType: revision === 0 ? 'created' : 'updated',
    changeDescription: revision === 0 ? 'audit.created' : 'audit.updated',
    userId: 'u',
    userDisplayName: 'U',
    timestamp: 1_000 + revision,
  };
}

/** The access an entity had at each revision: it changes at 3, 7 and 11 and is the same in between. */
function accessAt(revision: number): Access | undefined {
  if (revision < 3) return undefined;
  if (revision < 7) return { read: { userIds: ['a'] } };
  if (revision < 11) return { read: { permission: 'p::x' } };
  return { read: { userIds: ['b'] }, update: { userIds: ['b'] } };
}

function shuffled<T>(values: T[], seed: number): T[] {
  const copy = [...values];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

describe('TrailStore', () => {
  it.each([1, 2, 3, 4, 5])('no item before a retention erasure keeps its title, whatever the order and overlap of deliveries (seed %i)', async (seed) => {
    const trail = new TrailStore(store);
    await trail.ensureIndexes();
    const entityId = `erased${seed}`;
    // Revisions 0 to 5 name the visitor, 6 is the retention job's erasure, 7 a later change of the tombstone.
    const change = (revision: number): TrailEntry =>
      revision === 6
        ? { ...entry(entityId, 6), changeType: 'deleted', changeDescription: 'audit.deleted', userId: 'system:retention', userDisplayName: 'system:retention' }
        : { ...entry(entityId, revision), entityTitle: revision === 7 ? 'After' : 'Jane Visitor' };
    const revisions = Array.from({ length: 8 }, (_, n) => n);
    const deliveries = shuffled([...revisions, ...revisions], seed);
    await Promise.all([0, 1, 2, 3].map(async (worker) => {
      for (let n = worker; n < deliveries.length; n += 4) {
        const revision = deliveries[n] as number;
        await trail.record(change(revision), { access: undefined, revision });
      }
    }));
    const items = await trail.items.find({ entityKey: `c/${entityId}` }, { sort: { revision: 1 } });
    expect(items.map((item) => [item.revision, item.entityTitle, item.erased])).toEqual([
      ...revisions.slice(0, 6).map((revision) => [revision, entityId, true]),
      [6, entityId, undefined],
      [7, 'After', undefined],
    ]);
    expect(await trail.entities.findById(`c/${entityId}`)).toMatchObject({ erasedRevision: 6 });
  });

  it.each([1, 2, 3, 4, 5])('every item ends with the newest access, whatever the order and overlap of deliveries (seed %i)', async (seed) => {
    const trail = new TrailStore(store);
    await trail.ensureIndexes();
    const entityId = `e${seed}`;
    const revisions = Array.from({ length: 14 }, (_, n) => n);
    // Shuffled, overlapping, and each change delivered twice.
    const deliveries = shuffled([...revisions, ...revisions], seed);
    await Promise.all([0, 1, 2, 3].map(async (worker) => {
      for (let n = worker; n < deliveries.length; n += 4) {
        const revision = deliveries[n] as number;
        await trail.record(entry(entityId, revision), { access: accessAt(revision), revision });
      }
    }));
    const items = await trail.items.find({ entityKey: `c/${entityId}` }, { sort: { revision: 1 } });
    expect(items.map((item) => item.revision)).toEqual(revisions);
    for (const item of items) expect({ revision: item.revision, access: item.access }).toEqual({ revision: item.revision, access: accessAt(13) });
    const record = await trail.entities.findById(`c/${entityId}`);
    expect(record).toMatchObject({ revision: 13, access: accessAt(13) });
    // Where the newest access was first seen depends on arrival order; every item agrees with the record.
    expect(record?.accessRevision).toBeGreaterThanOrEqual(11);
    expect(new Set(items.map((item) => item.accessRevision))).toEqual(new Set([record?.accessRevision]));
  });

  it('a change that arrives after newer ones takes the newer access and moves nothing back', async () => {
    const trail = new TrailStore(store);
    await trail.record(entry('late', 12), { access: accessAt(12), revision: 12 });
    await trail.record(entry('late', 5), { access: accessAt(5), revision: 5 });
    const items = await trail.items.find({ entityKey: 'c/late' }, { sort: { revision: 1 } });
    expect(items.map((item) => [item.revision, item.access])).toEqual([
      [5, accessAt(12)],
      [12, accessAt(12)],
    ]);
  });

  it('a redelivered change spreads the access its first delivery moved but did not spread before it stopped', async () => {
    const trail = new TrailStore(store);
    for (const revision of [0, 1, 2]) await trail.record(entry('stopped', revision), { access: accessAt(revision), revision });
    // The first delivery of revision 3 moved the entity record, then its process died.
    await trail.entities.updateOne({ id: 'c/stopped' }, { $set: { revision: 3, access: accessAt(3), accessRevision: 3 } });
    await trail.record(entry('stopped', 3), { access: accessAt(3), revision: 3 });
    const items = await trail.items.find({ entityKey: 'c/stopped' }, { sort: { revision: 1 } });
    expect(items.map((item) => [item.revision, item.access])).toEqual([0, 1, 2, 3].map((revision) => [revision, accessAt(3)]));
  });
});

describe('TrailStore.batches', () => {
  it('reads every selected item once, in page order, across batches whose edges fall inside one millisecond', async () => {
    const trail = new TrailStore(store);
    // Seven changes, five of them stamped in the same millisecond: the id breaks the tie.
    const stamps = [5_000, 5_001, 5_001, 5_001, 5_001, 5_001, 5_002];
    for (const [index, timestamp] of stamps.entries()) {
      await trail.record({ ...entry(`batched-${index}`, 0), projectId: 'batched', timestamp }, { access: undefined, revision: 0 });
    }
    const paged = (await trail.page({ projectId: 'batched' }, 0, 100)).items.map((item) => item.id);
    for (const batchSize of [1, 2, 3, 7, 100]) {
      const batches: string[][] = [];
      for await (const batch of trail.batches({ projectId: 'batched' }, batchSize)) batches.push(batch.map((item) => item.id));
      expect(batches.flat(), `batches of ${batchSize}`).toEqual(paged);
      expect(batches.every((batch) => batch.length <= batchSize)).toBe(true);
    }
    expect(paged).toHaveLength(7);
  });

  it('records nothing of a project once it erased its trail, or whose record says it was purged', async () => {
    const trail = new TrailStore(store);
    const of = (projectId: string, entityId: string): TrailEntry => ({ ...entry(entityId, 0), projectId, id: `${projectId}/${entityId}/0`, entityKey: `${projectId}/${entityId}` });
    await trail.record(of('erased-here', 'before'), { access: undefined, revision: 0 });
    expect(await trail.eraseProject('erased-here')).toEqual({ items: 1, entities: 1 });
    // Late events: visitor retention in the same hour, a redelivery, another service's outbox.
    await trail.record(of('erased-here', 'late'), { access: undefined, revision: 0 });
    await trail.recordProjectRecordChange({ ...of('erased-here', 'membership'), entityTypeId: 'project.members' });
    await store.collection(PROJECTS_COLLECTION).insertOne({ id: 'purged-elsewhere', purgedAt: 5 });
    await trail.record(of('purged-elsewhere', 'late'), { access: undefined, revision: 0 });
    await trail.record(of('live', 'kept'), { access: undefined, revision: 0 });
    expect((await trail.items.find({ projectId: { $in: ['erased-here', 'purged-elsewhere', 'live'] } })).map((item) => item.id)).toEqual(['live/kept/0']);
    expect(await trail.entities.count({ projectId: { $in: ['erased-here', 'purged-elsewhere'] } })).toBe(0);
  });

  it("keeps no deleted account's name on an item written after the trail forgot it, with the name read before", async () => {
    const trail = new TrailStore(store);
    const by = (userId: string, entityId: string): TrailEntry => ({ ...entry(entityId, 0), projectId: 'names', id: `names/${entityId}/0`, entityKey: `names/${entityId}`, userId, userDisplayName: `${userId} Person` });
    expect(await trail.forgetAuthorName('gone')).toEqual({ items: 0 });
    // Its event was read, with the name, before the account went; it is written after the scan.
    await trail.record(by('gone', 'late'), { access: undefined, revision: 0 });
    await trail.recordProjectRecordChange({ ...by('gone', 'membership'), entityTypeId: 'project.members' });
    await trail.record(by('here', 'kept'), { access: undefined, revision: 0 });
    const names = Object.fromEntries((await trail.items.find({ projectId: 'names' })).map((item) => [item.entityId, item.userDisplayName]));
    expect(names).toEqual({ late: 'gone', membership: 'gone', kept: 'here Person' });
  });
});
