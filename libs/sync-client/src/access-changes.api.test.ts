import { PROJECT_MEMBERS_COLLECTION, projectMemberId, scopePermission } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from './index';
import { sdkTestProject } from './test-support/sdk-test-project';
import { heldFetch } from './testing';

/** What the copy holds after the caller's access changes: checks of several collections, and access widened by a grant. */
const project = sdkTestProject({ typePrefix: 'a', realtime: true, members: [] });
const { client, freshType, dataPath, ownerCreates, addMember } = project;

async function setPermissions(userId: string, permissions: string[]): Promise<void> {
  const { platform, projectId } = project;
  await platform.context.store.collection(PROJECT_MEMBERS_COLLECTION).updateOne({ id: projectMemberId(projectId, userId) }, { $set: { permissions: permissions.map((name) => scopePermission(projectId, name)) } });
  await platform.context.accessChanges.announce({ projectId });
}

const revoke = (typeId: string, id: string) => project.platform.call('PATCH', `${dataPath(typeId)}/${id}`, { token: project.owner, body: { baseRevision: 0, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } });

describe('access checks of several collections', () => {
  it('a check asked for one collection while another collection is being checked runs after it: both revoked documents leave at once', async () => {
    const [typeA, typeB] = [await freshType(), await freshType()];
    const [a, b] = [await ownerCreates(typeA, { title: 'in A' }), await ownerCreates(typeB, { title: 'in B' })];
    const userId = `reader${project.typeCount}`;
    await addMember(userId);
    // A slow network: a check of A is still under way when B's access-changed asks for B.
    let checks = 0;
    let answered = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (!String(input).endsWith('/readable')) return globalThis.fetch(input, init);
      checks += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return globalThis.fetch(input, init).finally(() => (answered += 1));
    };
    const reader = client({ collections: [{ typeId: typeA, realtime: true }, { typeId: typeB, realtime: true }], token: await project.platform.signIn(userId), realtime: true, realtimeDebounceMs: 50, fetch });
    const lost: string[] = [];
    reader.on('change', (change) => change.reason === 'accessLost' && lost.push(...change.removed.map((document) => document.id)));
    await reader.start();
    await expect.poll(() => reader.realtimeStatus).toBe('live');
    expect([reader.collection(typeA).get(a)?.id, reader.collection(typeB).get(b)?.id]).toEqual([a, b]);
    // The check at start (one request per collection) is done.
    await expect.poll(() => answered, { timeout: 3_000 }).toBe(2);
    expect(checks).toBe(2);

    expect((await revoke(typeA, a)).status).toBe(200);
    expect((await revoke(typeB, b)).status).toBe(200);
    await expect.poll(() => [...lost].sort(), { timeout: 3_000 }).toEqual([a, b].sort());
    expect([reader.collection(typeA).get(a), reader.collection(typeB).get(b)]).toEqual([undefined, undefined]);
  });
});

describe('access lost while a write is on the way', () => {
  it('the record the check dropped stays gone: the write’s answer does not bring it back into the store', async () => {
    const notes = await freshType();
    const note = await ownerCreates(notes, { title: 'shared for now' });
    const userId = `writer${project.typeCount}`;
    await addMember(userId);
    const push = heldFetch((url) => url.endsWith('/bulk'), { hold: 'answer' });
    const store = new MemoryStore();
    const writer = client({ collections: [notes], token: await project.platform.signIn(userId), store, fetch: push.fetch });
    const collection = writer.collection(notes);
    await collection.pull();
    await collection.update(note, { title: 'edited before the revocation' });
    const pushed = writer.push();
    try {
      await push.held;
      // The edit landed (revision 1); then the owner takes the writer's read access.
      const revoked = await project.platform.call('PATCH', `${dataPath(notes)}/${note}`, { token: project.owner, body: { baseRevision: 1, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } });
      expect(revoked.status).toBe(200);
      await writer.checkAccess(notes);
      expect(collection.get(note)).toBeUndefined();
    } finally {
      push.release();
    }
    await pushed;
    expect([collection.get(note), collection.pendingCount(), await store.get(`entities:${notes}`, note)]).toEqual([undefined, 0, undefined]);
  });
});

describe('access widened', () => {
  it('a permission granted brings the documents it makes readable, written before the last pull, and keeps local changes pending', async () => {
    const [notes, tasks] = [await freshType(), await freshType()];
    const open = await ownerCreates(notes, { title: 'open' });
    const secretNote = await ownerCreates(notes, { title: 'secret note', access: { read: { permission: scopePermission(project.projectId, 'secret') } } });
    const secretTask = await ownerCreates(tasks, { title: 'secret task', access: { read: { permission: scopePermission(project.projectId, 'secret') } } });
    const userId = `grantee${project.typeCount}`;
    await addMember(userId);
    // Pushes do not get through: the local edit stays pending across the re-pull.
    const fetch: typeof globalThis.fetch = (input, init) => (String(input).endsWith('/bulk') ? Promise.reject(new TypeError('fetch failed')) : globalThis.fetch(input, init));
    const reader = client({ collections: [{ typeId: notes, realtime: true }, tasks], token: await project.platform.signIn(userId), realtime: true, realtimeDebounceMs: 50, fetch });
    await reader.start();
    await expect.poll(() => reader.realtimeStatus).toBe('live');
    // Pulled past the secret documents (a later public one moves the cursor beyond them).
    const later = await ownerCreates(notes, { title: 'later' });
    await reader.awaitInSync().catch(() => undefined);
    await reader.collection(notes).pull();
    expect(reader.collection(notes).list().map((document) => document.id).sort()).toEqual([open, later].sort());
    expect(reader.collection(tasks).list()).toEqual([]);
    await reader.collection(notes).update(open, { title: 'edited here' });

    await setPermissions(userId, ['secret']);
    await expect.poll(() => reader.collection(notes).list().map((document) => document.id).sort(), { timeout: 3_000 }).toEqual([open, later, secretNote].sort());
    await expect.poll(() => reader.collection(tasks).list().map((document) => document.id), { timeout: 3_000 }).toEqual([secretTask]);
    expect(reader.collection(notes).get(open)).toMatchObject({ title: 'edited here' });
    expect(reader.collection(notes).state(open)).toBe('localChanges');
  });

  it('a client without realtime sees a grant at its next poll, and a permission taken away drops what it hid at once', async () => {
    const notes = await freshType();
    const open = await ownerCreates(notes, { title: 'open' });
    const secret = await ownerCreates(notes, { title: 'secret', access: { read: { permission: scopePermission(project.projectId, 'secret') } } });
    const userId = `poller${project.typeCount}`;
    await addMember(userId);
    // Polling only, and no periodic access check within the test: the pulls' standing is what tells.
    const reader = client({ collections: [notes], token: await project.platform.signIn(userId), realtime: false, pollIntervalMs: 100, accessCheckMs: 3_600_000 });
    const lost: string[] = [];
    reader.on('change', (change) => change.reason === 'accessLost' && lost.push(...change.removed.map((document) => document.id)));
    await reader.start();
    const later = await ownerCreates(notes, { title: 'later' });
    await expect.poll(() => reader.collection(notes).list().map((document) => document.id).sort(), { timeout: 3_000 }).toEqual([open, later].sort());

    await setPermissions(userId, ['secret']);
    await expect.poll(() => reader.collection(notes).list().map((document) => document.id).sort(), { timeout: 3_000 }).toEqual([open, later, secret].sort());

    await setPermissions(userId, []);
    await expect.poll(() => lost, { timeout: 3_000 }).toEqual([secret]);
    expect(reader.collection(notes).list().map((document) => document.id).sort()).toEqual([open, later].sort());
  });

  it("another member's new permissions reach that member's clients only: the others neither check what they hold nor pull from the start", async () => {
    const notes = await freshType();
    const secret = await ownerCreates(notes, { title: 'secret', access: { read: { permission: scopePermission(project.projectId, 'secret') } } });
    const [grantee, bystander] = [`grantee${project.typeCount}`, `bystander${project.typeCount}`];
    await addMember(grantee);
    await addMember(bystander);
    const fromStart: Record<string, number> = { [grantee]: 0, [bystander]: 0 };
    const checks: Record<string, number> = { [grantee]: 0, [bystander]: 0 };
    const counting = (userId: string): typeof globalThis.fetch => (input, init) => {
      if (String(input).includes('updatedAt=0&')) fromStart[userId]! += 1;
      if (String(input).endsWith('/readable')) checks[userId]! += 1;
      return globalThis.fetch(input, init);
    };
    const open = async (userId: string) => {
      const opened = client({ collections: [{ typeId: notes, realtime: true }], token: await project.platform.signIn(userId), realtime: true, realtimeDebounceMs: 50, fetch: counting(userId) });
      await opened.start();
      await expect.poll(() => opened.realtimeStatus).toBe('live');
      // Past the first pull: its cursor is no longer 0.
      await ownerCreates(notes, { title: `seen by ${userId}` });
      await expect.poll(() => opened.collection(notes).list().length, { timeout: 3_000 }).toBeGreaterThan(0);
      return opened;
    };
    const [granted, unchanged] = [await open(grantee), await open(bystander)];
    const before = { fromStart: { ...fromStart }, checks: { ...checks } };

    await setPermissions(grantee, ['secret']);
    await expect.poll(() => granted.collection(notes).get(secret)?.id, { timeout: 3_000 }).toBe(secret);
    expect(fromStart[grantee]).toBe(before.fromStart[grantee]! + 1);
    expect(checks[grantee]).toBeGreaterThan(before.checks[grantee]!);
    // The notice reached the gateway for the whole project; the bystander's standing did not move, so its stream was not told.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([fromStart[bystander], checks[bystander]]).toEqual([before.fromStart[bystander], before.checks[bystander]]);
    expect(unchanged.collection(notes).get(secret)).toBeUndefined();
  });
});
