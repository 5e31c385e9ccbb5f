import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus, type EventBus } from '@platform/bus';
import { PROJECT_MEMBERS_COLLECTION, PROJECTS_COLLECTION, projectMemberId, type Principal } from '@platform/contracts';
import { createEmbeddedStore, type DocumentStore } from '@platform/storage';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessChanges } from './access-changes';
import { ProjectAccess } from './project-access';

const alice: Principal = { kind: 'user', userId: 'alice', sessionId: 's', platformOwner: false };
let dataDir: string;
let store: DocumentStore;
let bus: EventBus;

async function addMember(projectId: string, userId: string): Promise<void> {
  await store.collection(PROJECT_MEMBERS_COLLECTION).insertOne({ id: projectMemberId(projectId, userId), projectId, userId, role: 'member', permissions: [], createdAt: 0 });
}

async function removeMember(projectId: string, userId: string): Promise<void> {
  await store.collection(PROJECT_MEMBERS_COLLECTION).deleteMany({ id: projectMemberId(projectId, userId) });
}

/** The store, with member reads held until `release` is called (to land a change mid-lookup). */
function heldMemberReads(): { store: DocumentStore; release: () => void } {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const collection = (name: string) => {
    const real = store.collection(name);
    if (name !== PROJECT_MEMBERS_COLLECTION) return real;
    return new Proxy(real, { get: (target, key) => (key === 'findById' ? async (id: string) => held.then(() => target.findById(id)) : Reflect.get(target, key)) });
  };
  return { store: new Proxy(store, { get: (target, key) => (key === 'collection' ? collection : Reflect.get(target, key)) }), release };
}

async function standing(access: ProjectAccess, projectId: string): Promise<'member' | 'none'> {
  return access.require(projectId, alice).then(
    () => 'member',
    () => 'none',
  );
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'project-access-'));
  store = await createEmbeddedStore({ dataDir });
  bus = createInProcessBus();
  for (const id of ['p1', 'p2']) await store.collection(PROJECTS_COLLECTION).insertOne({ id, name: id, ownerId: 'owner', aiEnabled: false, createdAt: 0, updatedAt: 0, revision: 0 });
  await addMember('p1', 'alice');
  await addMember('p2', 'alice');
});

afterEach(async () => {
  await bus.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('ProjectAccess', () => {
  it('treats a project outside an access token\'s projects as unknown, even after the same user read it unscoped (the cache is per user)', async () => {
    const access = new ProjectAccess(store, Date.now, 60_000);
    const scoped: Principal = { ...alice, projectIds: ['p1'] } as Principal;
    expect(await standing(access, 'p2')).toBe('member');
    await expect(access.require('p2', scoped)).rejects.toMatchObject({ statusCode: 404, code: 'PROJECT_NOT_FOUND' });
    expect((await access.require('p1', scoped)).caller.userId).toBe('alice');
    const project = (await access.require('p2', alice)).project;
    expect(await access.standingIn(project, scoped)).toBeNull();
    expect(await access.standingIn(project, alice)).not.toBeNull();
  });

  it("keeps a platform owner's answer apart from the same user's answer without that standing (a session from before a promotion)", async () => {
    const access = new ProjectAccess(store, Date.now, 60_000);
    const asOwner: Principal = { ...alice, sessionId: 's2', platformOwner: true };
    expect((await access.require('p1', asOwner)).caller.superuser).toBe(true);
    expect((await access.require('p1', alice)).caller.superuser).toBe(false);
    expect((await access.require('p1', asOwner)).caller.superuser).toBe(true);
  });

  it('answers from its cache until the project is forgotten', async () => {
    const access = new ProjectAccess(store, Date.now, 60_000);
    expect(await standing(access, 'p1')).toBe('member');
    await removeMember('p1', 'alice');
    expect(await standing(access, 'p1')).toBe('member');
    access.forget('p1');
    expect(await standing(access, 'p1')).toBe('none');
  });

  it('does not cache an answer read while its project was forgotten', async () => {
    const held = heldMemberReads();
    const access = new ProjectAccess(held.store, Date.now, 60_000);
    const inFlight = standing(access, 'p1');
    // The lookup read the project; the change lands before it reads the member record.
    access.forget('p1');
    held.release();
    expect(await inFlight).toBe('member');
    await removeMember('p1', 'alice');
    expect(await standing(access, 'p1')).toBe('none');
  });

  it('forgetAll drops every project, including lookups in flight', async () => {
    const held = heldMemberReads();
    const access = new ProjectAccess(held.store, Date.now, 60_000);
    const inFlight = [standing(access, 'p1'), standing(access, 'p2')];
    access.forgetAll();
    held.release();
    expect(await Promise.all(inFlight)).toEqual(['member', 'member']);
    await removeMember('p1', 'alice');
    await removeMember('p2', 'alice');
    expect([await standing(access, 'p1'), await standing(access, 'p2')]).toEqual(['none', 'none']);
  });

  it('expires cached answers after cacheMs without any notice', async () => {
    let now = 0;
    const access = new ProjectAccess(store, () => now, 1_000);
    expect(await standing(access, 'p1')).toBe('member');
    await removeMember('p1', 'alice');
    now = 999;
    expect(await standing(access, 'p1')).toBe('member');
    now = 1_000;
    expect(await standing(access, 'p1')).toBe('none');
  });
});

describe('AccessChanges', () => {
  it("carries one process's change to another process's cache over the bus", async () => {
    const logger = pino({ level: 'silent' });
    const here = new ProjectAccess(store, Date.now, 60_000);
    const there = new ProjectAccess(store, Date.now, 60_000);
    const announcer = new AccessChanges(bus, here, logger);
    const follower = new AccessChanges(bus, there, logger);
    await follower.follow();
    expect(follower.following).toBe(true);
    expect([await standing(here, 'p1'), await standing(there, 'p1'), await standing(there, 'p2')]).toEqual(['member', 'member', 'member']);

    await removeMember('p1', 'alice');
    await announcer.announce({ projectId: 'p1' });
    // The announcing process forgot before answering; the other one once the notice arrived.
    expect(await standing(here, 'p1')).toBe('none');
    await expect.poll(() => standing(there, 'p1')).toBe('none');

    await removeMember('p2', 'alice');
    await announcer.announce({ everything: true });
    await expect.poll(() => standing(there, 'p2')).toBe('none');
    await follower.stop();
    expect(follower.following).toBe(false);
  });
});
