import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedStore, type Collection, type DocumentStore, type StoredDocument } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { touchRecentProject } from './recent-projects';
import { UserRepository } from './user-repository';
import type { UserRecord } from './user-record';

/**
 * The embedded store answers within one turn of the event loop, so concurrent callers never
 * interleave on it; a networked MongoDB lets them. This store yields to the event loop before
 * every read and write, so every concurrent read-modify-write really overlaps.
 */
function interleavingStore(inner: DocumentStore): DocumentStore {
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return {
    ...inner,
    collection<T extends StoredDocument>(name: string): Collection<T> {
      const collection = inner.collection<T>(name);
      return Object.assign(Object.create(collection) as Collection<T>, {
        findById: async (...args: Parameters<Collection<T>['findById']>) => (await turn(), collection.findById(...args)),
        updateOne: async (...args: Parameters<Collection<T>['updateOne']>) => (await turn(), collection.updateOne(...args)),
      });
    },
  };
}

describe('UserRepository.updateFromCurrent', () => {
  let dataDir: string;
  let store: DocumentStore;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'user-repository-'));
    store = await createEmbeddedStore({ dataDir });
  });
  afterEach(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('never loses a concurrent whole-map write, so evicted recent projects stay evicted', async () => {
    const users = new UserRepository(interleavingStore(store), () => 0);
    const old = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`old-${String(i).padStart(2, '0')}`, 1000 + i]));
    const user: UserRecord = { id: 'u1', email: 'u1@example.org', passwordHash: 'x', displayName: 'U', profileFields: {}, recentProjects: old, platformOwner: false, createdAt: 0, updatedAt: 0, revision: 0 };
    await users.insert(user);

    const fresh = Array.from({ length: 30 }, (_, i) => `new-${String(i).padStart(2, '0')}`);
    await Promise.all(fresh.map((projectId) => users.updateFromCurrent('u1', (current) => ({ $set: { recentProjects: touchRecentProject(current.recentProjects, projectId, 5000) } }))));

    const stored = await users.require('u1');
    expect(stored.revision).toBe(30);
    expect(new Set(Object.keys(stored.recentProjects))).toEqual(new Set([...fresh, ...Object.keys(old).slice(30)]));
  });
});

describe('UserRepository platform ownership', () => {
  let dataDir: string;
  let store: DocumentStore;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'user-repository-owners-'));
    store = await createEmbeddedStore({ dataDir });
  });
  afterEach(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const record = (id: string, platformOwner: boolean): UserRecord => ({ id, email: `${id}@example.org`, passwordHash: 'x', displayName: id, profileFields: {}, recentProjects: {}, platformOwner, createdAt: 0, updatedAt: 0, revision: 0 });

  it('is never taken from the last owner, also when owners demote themselves at once', async () => {
    const users = new UserRepository(interleavingStore(store), () => 1_000);
    for (const user of [record('ada', true), record('bob', true), record('cy', false)]) await users.insert(user);
    expect(await users.demotePlatformOwner('cy')).toEqual({ user: expect.objectContaining({ id: 'cy', platformOwner: false }), changed: false });
    expect(await users.demotePlatformOwner('nobody')).toBe('gone');

    for (let round = 0; round < 20; round += 1) {
      const outcomes = await Promise.all([users.demotePlatformOwner('ada'), users.demotePlatformOwner('bob')]);
      expect(outcomes.filter((outcome) => typeof outcome === 'object' && outcome.changed).length, `round ${round}`).toBeLessThanOrEqual(1);
      expect(outcomes.filter((outcome) => outcome === 'busy')).toEqual([]);
      expect(await users.countPlatformOwners()).toBeGreaterThanOrEqual(1);
      for (const id of ['ada', 'bob']) await users.update(id, { $set: { platformOwner: true } });
    }
    expect(await users.demotePlatformOwner('ada')).toEqual({ user: expect.objectContaining({ platformOwner: false }), changed: true });
    expect(await users.demotePlatformOwner('bob')).toBe('last-owner');
  });

  it('is given back after a refused change only while the demotion is what is stored', async () => {
    const users = new UserRepository(store, () => 1_000);
    for (const user of [record('ada', true), record('bob', true)]) await users.insert(user);
    expect(await users.demotePlatformOwner('bob')).toMatchObject({ user: { platformOwner: false, revision: 1 }, changed: true });
    await users.restorePlatformOwner('bob');
    expect(await users.require('bob')).toMatchObject({ platformOwner: true, revision: 2 });
    await users.restorePlatformOwner('bob');
    expect((await users.require('bob')).revision).toBe(2);
  });
});
