import { dataService } from '@platform/data';
import { startTestGateway, storeOnDisk, type TestGateway } from '@platform/gateway/testing';
import type { DocumentStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditService } from '../app';
import { rebuildProjectTrail } from '../rebuild/rebuild-project';
import { TRAIL_COLLECTION, TRAIL_ENTITIES_COLLECTION } from './trail-item';

interface Item {
  entityId: string;
  revision: number;
  entityTitle: string;
  changeDescription: string;
}

/**
 * An upgrade from a version whose trail recorded a visitor retention erasure as its item alone
 * (before 2026-12-07): the items of the record's earlier revisions kept the visitor's name as their
 * title. The current version's first start gives them the record's id instead, in the page and in
 * the export, as it does for erasures it records itself, and a rebuild keeps them.
 */
describe('a visitor record that an earlier version erased', () => {
  let disk: Awaited<ReturnType<typeof storeOnDisk>>;
  let store: DocumentStore;
  let platform: TestGateway | undefined;

  beforeAll(async () => {
    disk = await storeOnDisk('earlier-erasures-');
    store = disk.store;
  });
  afterAll(async () => {
    await platform?.close();
    await disk?.close();
  });

  it('keeps no title of it in the trail once the current version has started, in the page, the export or after a rebuild', async () => {
    platform = await startTestGateway({ services: [dataService, auditService], store });
    let owner = await platform.signIn('owner');
    const projectId = await platform.seedProject({ ownerId: 'owner' });
    const p = `/api/projects/${projectId}`;
    for (const id of ['guests', 'notes']) expect((await platform.call('POST', `${p}/types`, { token: owner, body: { id, name: id } })).status).toBe(201);
    expect((await platform.call('POST', `${p}/types/guests/data`, { token: owner, body: { id: 'vera', name: 'Vera Visitor' } })).status).toBe(201);
    expect((await platform.call('PATCH', `${p}/types/guests/data/vera`, { token: owner, body: { modifier: { $set: { name: 'Vera V. Visitor' } }, baseRevision: 0 } })).status).toBe(200);
    expect((await platform.call('POST', `${p}/types/notes/data`, { token: owner, body: { id: 'kept', title: 'Kept Note' } })).status).toBe(201);
    const page = async () => ((await platform!.call('GET', `${p}/audit-trail?limit=100`, { token: owner })).body.items as Item[]).filter((item) => item.entityId !== 'guests' && item.entityId !== 'notes');
    await vi.waitFor(async () => expect(await page()).toHaveLength(3), { timeout: 5_000, interval: 20 });
    await platform.close();
    platform = undefined;

    // What the earlier version's retention run and trail left: the record erased with its earlier
    // history, and the trail's item of the erasure beside the earlier items, which keep the name.
    // That version kept no record of the audit service's migrations (the start above wrote one).
    await store.collection('audit-migrations').deleteMany({});
    const guests = `tenant-${projectId}-guests`;
    const erasedAt = Date.now() - 60_000;
    const erasure = { userId: 'system:retention', timestamp: erasedAt, baseRevision: 1, revision: 2, modifierJson: JSON.stringify({ $set: { deletedAt: erasedAt }, $unset: { name: '' } }) };
    expect(await store.collection(guests).updateOne({ id: 'vera', revision: 1 }, { $set: { revision: 2, deletedAt: erasedAt, updatedAt: erasedAt }, $unset: { name: '' } })).not.toBeNull();
    await store.collection(`${guests}.history`).deleteMany({ entityId: 'vera' });
    await store.collection(`${guests}.history`).insertOne({ id: 'vera:2', entityId: 'vera', ...erasure });
    await store.collection(TRAIL_ENTITIES_COLLECTION).updateOne({ id: `${guests}/vera` }, { $set: { revision: 2 } });
    await store.collection(TRAIL_COLLECTION).insertOne({
      id: `${guests}/vera/2`,
      projectId,
      entityKey: `${guests}/vera`,
      revision: 2,
      entityId: 'vera',
      entityTitle: 'vera',
      entityTypeId: 'guests',
      entityTypeName: 'guests',
      changeType: 'deleted',
      changeDescription: 'audit.deleted',
      userId: 'system:retention',
      userDisplayName: 'system:retention',
      timestamp: erasedAt,
      access: {},
      accessRevision: 0,
    });

    // The current version starts on that store.
    platform = await startTestGateway({ services: [dataService, auditService], store });
    owner = await platform.signIn('owner');
    const titles = async () => Object.fromEntries((await page()).map((item) => [`${item.entityId}/${item.revision}`, item.entityTitle]));
    const expected = { 'vera/0': 'vera', 'vera/1': 'vera', 'vera/2': 'vera', 'kept/0': 'Kept Note' };
    expect(await titles()).toEqual(expected);
    const exported = await platform.call('GET', `${p}/audit-trail/export`, { token: owner });
    expect(exported.status).toBe(200);
    expect(String(exported.body)).not.toContain('Vera');
    expect(String(exported.body)).toContain('Kept Note');

    // A rebuild replays what history holds (the erasure alone) and keeps the earlier items.
    await rebuildProjectTrail(store, projectId);
    expect(await titles()).toEqual(expected);
  });
});
