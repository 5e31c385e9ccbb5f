import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, type DocumentStore } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectCaller } from './rls';
import { typesCollection } from '@platform/contracts';
import { TypeReadAccess } from './type-read-access';

const reader: ProjectCaller = { userId: 'reader', superuser: false, permissions: new Set(['p::readers']) };
const other: ProjectCaller = { userId: 'other', superuser: false, permissions: new Set() };
const owner: ProjectCaller = { userId: 'owner', superuser: true, permissions: new Set() };

let dataDir: string;
let store: DocumentStore;
let now = 0;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'type-read-access-'));
  store = await createEmbeddedStore({ dataDir });
  now = 0;
  const types = store.collection(typesCollection('p'));
  await types.insertOne({ id: 'secret', name: 'Secret', access: { read: { permission: 'p::readers' } } });
  await types.insertOne({ id: 'listed', name: 'Listed', access: { read: { userIds: ['other'] }, update: { userIds: [] } } });
  await types.insertOne({ id: 'open', name: 'Open', access: { update: { permission: 'p::editors' } } });
  await types.insertOne({ id: 'plain', name: 'Plain' });
});

afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('TypeReadAccess', () => {
  it("applies each type's read rule; types without one, ids that are no type and superusers pass", async () => {
    const access = new TypeReadAccess(store, () => now, 1_000);
    const readable = async (caller: ProjectCaller) =>
      (await Promise.all(['secret', 'listed', 'open', 'plain', 'types', 'missing'].map(async (typeId) => ((await access.mayRead('p', typeId, caller)) ? typeId : '')))).filter(Boolean);
    expect(await readable(reader)).toEqual(['secret', 'open', 'plain', 'types', 'missing']);
    expect(await readable(other)).toEqual(['listed', 'open', 'plain', 'types', 'missing']);
    expect(await readable(owner)).toEqual(['secret', 'listed', 'open', 'plain', 'types', 'missing']);
    expect(await access.unreadableTypes('p', reader)).toEqual(['listed']);
    expect((await access.unreadableTypes('p', other)).sort()).toEqual(['secret']);
    expect(await access.unreadableTypes('p', owner)).toEqual([]);
  });

  it('answers from its cache until the expiry, and at once after forget', async () => {
    const access = new TypeReadAccess(store, () => now, 1_000);
    expect(await access.mayRead('p', 'plain', other)).toBe(true);
    await store.collection(typesCollection('p')).updateOne({ id: 'plain' }, { $set: { access: { read: { userIds: [] } } } });
    now = 999;
    expect(await access.mayRead('p', 'plain', other)).toBe(true);
    now = 1_000;
    expect(await access.mayRead('p', 'plain', other)).toBe(false);

    await store.collection(typesCollection('p')).updateOne({ id: 'plain' }, { $unset: { access: '' } });
    access.forget('p');
    expect(await access.mayRead('p', 'plain', other)).toBe(true);
    await store.collection(typesCollection('p')).updateOne({ id: 'plain' }, { $set: { access: { read: { userIds: [] } } } });
    access.forgetAll();
    expect(await access.mayRead('p', 'plain', other)).toBe(false);
  });

  it('reads a type created since the cache was filled at once, and every audit page reads afresh', async () => {
    const access = new TypeReadAccess(store, () => now, 1_000);
    expect(await access.mayRead('p', 'plain', other)).toBe(true);
    await store.collection(typesCollection('p')).insertOne({ id: 'fresh', name: 'Fresh', access: { read: { userIds: [] } } });
    expect(await access.mayRead('p', 'fresh', other)).toBe(false);
    await store.collection(typesCollection('p')).updateOne({ id: 'plain' }, { $set: { access: { read: { userIds: [] } } } });
    expect((await access.unreadableTypes('p', other)).sort()).toEqual(['fresh', 'plain', 'secret']);
  });

  it('reads an id that is no type once per expiry, not on every question', async () => {
    let reads = 0;
    const counting = new Proxy(store, { get: (target, key) => (key === 'collection' ? (name: string) => ((reads += 1), target.collection(name)) : Reflect.get(target, key)) });
    const access = new TypeReadAccess(counting, () => now, 1_000);
    for (let n = 0; n < 3; n += 1) expect(await access.mayRead('p', 'applications', other)).toBe(true);
    expect(reads).toBe(1);
    now = 1_000;
    expect(await access.mayRead('p', 'applications', other)).toBe(true);
    expect(reads).toBe(2);
  });
});
