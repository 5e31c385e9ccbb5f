import { PROJECT_MEMBERS_COLLECTION, projectMemberId, scopePermission, sessionKey } from '@platform/contracts';
import { hashToken } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { SyncError } from './index';
import { sdkTestProject } from './test-support/sdk-test-project';
import { flakyNetwork } from './testing';
import type { ChangeEvent } from './types';

/** Issue 29: what an application needs to trust the client (sessions, going online, lost access, signals). */
const project = sdkTestProject({ typePrefix: 's', realtime: true, members: [{ userId: 'bob' }] });
const { client, freshType, dataPath, ownerCreates } = project;

/** Ends a session the way a logout (or a restart of a server keeping sessions in memory) does. */
const endSession = (token: string) => project.platform.context.kv.delete(sessionKey(hashToken(token)));

async function addMember(userId: string): Promise<void> {
  await project.addMember(userId);
  await project.platform.context.accessChanges.announce({ projectId: project.projectId });
}

async function removeMember(userId: string): Promise<void> {
  const { platform, projectId } = project;
  await platform.context.store.collection(PROJECT_MEMBERS_COLLECTION).deleteMany({ id: projectMemberId(projectId, userId) });
  await platform.context.accessChanges.announce({ projectId });
}

describe('a refused session (401)', () => {
  it('pauses with the queue untouched, emits unauthorized, and resumes by itself once getToken answers a working token', async () => {
    const typeId = await freshType();
    let token = await project.platform.signIn('bob');
    let asked = 0;
    const bob = client({ collections: [typeId], getToken: () => ((asked += 1), token) });
    const events: string[] = [];
    bob.on('unauthorized', () => events.push('unauthorized'));
    bob.on('authorized', () => events.push('authorized'));
    bob.on('conflict', ({ id, conflict }) => events.push(`conflict ${id} ${conflict.error?.status}`));
    await bob.start();
    const notes = bob.collection(typeId);
    const kept = await notes.insert({ title: 'before the logout' });
    await expect.poll(() => notes.state(kept.id)).toBe('synced');

    await endSession(token);
    const added = await notes.insert({ title: 'queued while signed out' });
    await notes.update(kept.id, { title: 'edited while signed out' });
    await expect.poll(() => events).toEqual(['unauthorized']);
    expect(bob.isUnauthorized).toBe(true);
    expect([notes.state(added.id), notes.state(kept.id)]).toEqual(['localChanges', 'localChanges']);
    expect(notes.conflicts()).toEqual([]);

    token = await project.platform.signIn('bob');
    await expect.poll(() => events, { timeout: 5_000 }).toEqual(['unauthorized', 'authorized']);
    expect([notes.state(added.id), notes.state(kept.id)]).toEqual(['synced', 'synced']);
    expect(asked).toBeGreaterThanOrEqual(2);
    const server = (await project.platform.call('GET', `${dataPath(typeId)}?updatedAt=0`, { token: project.owner })).body.items.map((item: { title: string }) => item.title).sort();
    expect(server).toEqual(['edited while signed out', 'queued while signed out']);
  });
});

describe('an account that must confirm its email first (403 GATEWAY_EMAIL_UNCONFIRMED)', () => {
  /** What identity does to the account's sessions when the operator requires confirmed addresses, and when the link is followed. */
  const markUnconfirmed = async (token: string, unconfirmed: boolean) => {
    const key = sessionKey(hashToken(token));
    const { emailUnconfirmed: _was, ...session } = JSON.parse((await project.platform.context.kv.get(key))!) as Record<string, unknown>;
    await project.platform.context.kv.set(key, JSON.stringify(unconfirmed ? { ...session, emailUnconfirmed: true } : session));
  };

  it('pauses like a refused session, with the queue untouched and no conflict, and resumes with the same session once the address is confirmed', async () => {
    const typeId = await freshType();
    const token = await project.platform.signIn('bob');
    const bob = client({ collections: [typeId], token, backoff: { initialMs: 100, maxMs: 200 } });
    const events: string[] = [];
    bob.on('unauthorized', ({ code }) => events.push(`unauthorized ${code}`));
    bob.on('authorized', () => events.push('authorized'));
    await bob.start();
    const notes = bob.collection(typeId);
    const kept = await notes.insert({ title: 'before' });
    await expect.poll(() => notes.state(kept.id)).toBe('synced');

    await markUnconfirmed(token, true);
    const added = await notes.insert({ title: 'written while unconfirmed' });
    await expect.poll(() => events).toEqual(['unauthorized GATEWAY_EMAIL_UNCONFIRMED']);
    expect(bob.isUnauthorized).toBe(true);
    expect(notes.state(added.id)).toBe('localChanges');
    expect(notes.conflicts()).toEqual([]);

    await markUnconfirmed(token, false);
    await expect.poll(() => events, { timeout: 5_000 }).toEqual(['unauthorized GATEWAY_EMAIL_UNCONFIRMED', 'authorized']);
    await expect.poll(() => notes.state(added.id)).toBe('synced');
    const server = (await project.platform.call('GET', `${dataPath(typeId)}?updatedAt=0`, { token: project.owner })).body.items.map((item: { title: string }) => item.title).sort();
    expect(server).toEqual(['before', 'written while unconfirmed']);
  });
});

describe('online()', () => {
  it('pushes within a second of the network coming back, however long the backoff has grown', async () => {
    const typeId = await freshType();
    const { network, fetch } = flakyNetwork(project.platform.url);
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob'), fetch, backoff: { initialMs: 500, factor: 4, maxMs: 60_000, random: () => 1 } });
    await bob.start();
    network.online = false;
    const queued = await bob.collection(typeId).insert({ title: 'written offline' });
    // Retries at 0.5 s and 2.5 s; the next one would wait 8 s more.
    await expect.poll(() => network.failures, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    network.online = true;
    const back = Date.now();
    bob.online();
    await expect.poll(() => bob.collection(typeId).state(queued.id), { timeout: 1_000, interval: 20 }).toBe('synced');
    expect(Date.now() - back).toBeLessThan(1_000);
  });
});

describe('lost access', () => {
  it('drops an entity whose read access was revoked, with a removed change of reason accessLost, on its periodic check', async () => {
    const typeId = await freshType();
    const shared = await ownerCreates(typeId, { title: 'shared' });
    const kept = await ownerCreates(typeId, { title: 'still shared' });
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob'), accessCheckMs: 200 });
    const changes: ChangeEvent[] = [];
    bob.on('change', (change) => changes.push(change));
    await bob.start();
    expect(bob.collection(typeId).list().map((document) => document.id).sort()).toEqual([shared, kept].sort());

    const revoked = await project.platform.call('PATCH', `${dataPath(typeId)}/${shared}`, { token: project.owner, body: { baseRevision: 0, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } });
    expect(revoked.status).toBe(200);
    await expect.poll(() => bob.collection(typeId).get(shared), { timeout: 3_000 }).toBeUndefined();
    expect(bob.collection(typeId).list().map((document) => document.id)).toEqual([kept]);
    expect(changes.at(-1)).toMatchObject({ typeId, reason: 'accessLost', added: [], modified: [], removed: [{ id: shared, title: 'shared' }] });
  });

  it('checks more than 1,000 held entities in batches the server accepts, and drops the one revoked among them', async () => {
    const typeId = await freshType();
    const ids: string[] = [];
    for (let start = 0; start < 1_100; start += 500) {
      const operations = Array.from({ length: Math.min(500, 1_100 - start) }, (_, index) => ({ op: 'create', fields: { title: `n${start + index}` } }));
      const created = await project.platform.call('POST', `${dataPath(typeId)}/bulk`, { token: project.owner, body: { operations } });
      expect(created.status).toBe(200);
      const results = created.body.results as Array<{ status: number; body: { id: string } }>;
      expect(results.map((result) => result.status)).toEqual(operations.map(() => 201));
      ids.push(...results.map((result) => result.body.id));
    }
    const { network, fetch } = flakyNetwork(project.platform.url);
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob'), fetch, accessCheckMs: 200 });
    const changes: ChangeEvent[] = [];
    bob.on('change', (change) => changes.push(change));
    await bob.start();
    expect(bob.collection(typeId).list()).toHaveLength(1_100);

    // The last one written, so it is asked about in the second batch.
    const revoked = ids.at(-1) as string;
    expect((await project.platform.call('PATCH', `${dataPath(typeId)}/${revoked}`, { token: project.owner, body: { baseRevision: 0, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } })).status).toBe(200);
    await expect.poll(() => bob.collection(typeId).get(revoked), { timeout: 5_000 }).toBeUndefined();
    expect(bob.collection(typeId).list()).toHaveLength(1_099);
    expect(changes.filter((change) => change.reason === 'accessLost')).toMatchObject([{ typeId, removed: [{ id: revoked, title: 'n1099' }] }]);
    const checks = network.requests.filter((request) => request.startsWith(`POST ${dataPath(typeId)}/readable `));
    const batchSizes = checks.map((request) => (JSON.parse(request.slice(request.indexOf('{'))) as { ids: string[] }).ids.length);
    expect(batchSizes.slice(0, 2)).toEqual([1_000, 100]);
  });

  it('drops at once on a realtime access-changed notification: an entity revoked, then a permission taken away', async () => {
    const typeId = await freshType();
    const userId = `reader${project.typeCount}`;
    await project.platform.context.store.collection(PROJECT_MEMBERS_COLLECTION).insertOne({
      id: projectMemberId(project.projectId, userId),
      projectId: project.projectId,
      userId,
      role: 'member',
      permissions: [scopePermission(project.projectId, 'secret')],
      createdAt: Date.now(),
    });
    const open = await ownerCreates(typeId, { title: 'open' });
    const secret = await ownerCreates(typeId, { title: 'secret', access: { read: { permission: scopePermission(project.projectId, 'secret') } } });
    const reader = client({ collections: [typeId], token: await project.platform.signIn(userId), realtime: true, realtimeDebounceMs: 50 });
    const removed: string[] = [];
    reader.on('change', (change) => change.reason === 'accessLost' && removed.push(...change.removed.map((document) => document.id)));
    await reader.start();
    await expect.poll(() => reader.realtimeStatus).toBe('live');
    expect(reader.collection(typeId).list()).toHaveLength(2);

    await project.platform.call('PATCH', `${dataPath(typeId)}/${open}`, { token: project.owner, body: { baseRevision: 0, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } });
    await expect.poll(() => removed, { timeout: 2_000 }).toEqual([open]);

    await project.platform.context.store.collection(PROJECT_MEMBERS_COLLECTION).updateOne({ id: projectMemberId(project.projectId, userId) }, { $set: { permissions: [] } });
    await project.platform.context.accessChanges.announce({ projectId: project.projectId });
    await expect.poll(() => removed, { timeout: 2_000 }).toEqual([open, secret]);
    expect(reader.collection(typeId).list()).toEqual([]);
  });

  /** The owner lets only itself read a type (its `access.read`), as the console's type screen does. */
  async function restrictType(typeId: string): Promise<void> {
    const type = await project.platform.call('GET', `/api/projects/${project.projectId}/types/${typeId}`, { token: project.owner });
    const restricted = await project.platform.call('PATCH', `/api/projects/${project.projectId}/types/${typeId}`, { token: project.owner, body: { baseRevision: type.body.revision, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } });
    expect(restricted.status).toBe(200);
  }

  it('a type the member may no longer read: its access check drops every copy held of it as accessLost (pending edits too), and keeps what is only local', async () => {
    const typeId = await freshType();
    const salary = await ownerCreates(typeId, { amount: 100 });
    const other = await ownerCreates(typeId, { amount: 200 });
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob') });
    const changes: ChangeEvent[] = [];
    bob.on('change', (change) => changes.push(change));
    await bob.start();
    const salaries = bob.collection(typeId);
    expect(salaries.list()).toHaveLength(2);
    await salaries.update(other, { amount: 250 });
    await restrictType(typeId);
    const draft = await salaries.insert({ amount: 1 });

    await bob.checkAccess();
    expect(salaries.list().map((document) => document.id)).toEqual([draft.id]);
    expect([salaries.state(salary), salaries.state(other)]).toEqual([undefined, undefined]);
    const lost = changes.filter((change) => change.reason === 'accessLost');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ typeId, added: [], modified: [] });
    expect(lost[0]?.removed.map((document) => document.id).sort()).toEqual([salary, other].sort());

    // Given back: a pull brings everything again (the cursor started over).
    const type = await project.platform.call('GET', `/api/projects/${project.projectId}/types/${typeId}`, { token: project.owner });
    expect((await project.platform.call('PATCH', `/api/projects/${project.projectId}/types/${typeId}`, { token: project.owner, body: { baseRevision: type.body.revision, modifier: { $unset: { access: '' } } } })).status).toBe(200);
    await salaries.pull();
    expect(salaries.list().map((document) => document.id).sort()).toEqual([salary, other, draft.id].sort());
  });

  it("a type's read access taken away drops its copies at once on the realtime access-changed that names the type records", async () => {
    const typeId = await freshType();
    const salary = await ownerCreates(typeId, { amount: 100 });
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob'), realtime: true, realtimeDebounceMs: 50 });
    const removed: string[] = [];
    bob.on('change', (change) => change.reason === 'accessLost' && removed.push(...change.removed.map((document) => document.id)));
    await bob.start();
    await expect.poll(() => bob.realtimeStatus).toBe('live');
    expect(bob.collection(typeId).list().map((document) => document.id)).toEqual([salary]);
    await restrictType(typeId);
    await expect.poll(() => removed, { timeout: 2_000 }).toEqual([salary]);
    expect(bob.collection(typeId).list()).toEqual([]);
  });

  it('a member removed from the project: sync stops with projectLost, realtime stops, the copy stays unless purging is asked for', async () => {
    const typeId = await freshType();
    await ownerCreates(typeId, { title: 'project data' });
    for (const purgeOnProjectLost of [false, true]) {
      const userId = `leaver${purgeOnProjectLost ? 'purged' : 'kept'}${project.typeCount}`;
      await addMember(userId);
      const leaver = client({ collections: [typeId], token: await project.platform.signIn(userId), realtime: true, accessCheckMs: 200, purgeOnProjectLost });
      const lost: Array<{ purged: boolean }> = [];
      leaver.on('projectLost', (event) => lost.push({ purged: event.purged }));
      await leaver.start();
      await expect.poll(() => leaver.realtimeStatus).toBe('live');
      expect(leaver.collection(typeId).list()).toHaveLength(1);

      await removeMember(userId);
      await expect.poll(() => lost, { timeout: 3_000 }).toEqual([{ purged: purgeOnProjectLost }]);
      expect(leaver.projectLost).toBe(true);
      expect(leaver.realtimeStatus).toBe('stopped');
      expect(leaver.collection(typeId).list()).toHaveLength(purgeOnProjectLost ? 0 : 1);
      const refused = await leaver.sync().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SyncError);
      expect((refused as SyncError).code).toBe('PROJECT_NOT_FOUND');
    }
  });
});

describe('signals', () => {
  it('start() rejects at once when a collection names a type that does not exist, with or without realtime', async () => {
    for (const realtime of [false, true]) {
      const bob = client({ collections: ['no-such-type'], token: await project.platform.signIn('bob'), realtime });
      const began = Date.now();
      const refused = await bob.start().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SyncError);
      expect((refused as SyncError).code).toBe('DATA_TYPE_NOT_FOUND');
      expect(Date.now() - began).toBeLessThan(2_000);
      expect(bob.realtimeStatus).toBe('stopped');
    }
  });

  it('awaitInSync() resolves only once every document written before the call is in the copy', async () => {
    const typeId = await freshType();
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob') });
    const writes = Promise.all(Array.from({ length: 300 }, (_, index) => ownerCreates(typeId, { title: `doc ${index}` })));
    await bob.start();
    const written = await writes;
    await bob.awaitInSync();
    expect(bob.collection(typeId).list().map((document) => document.id).sort()).toEqual([...written].sort());
  });

  it('refuses server-owned and dotted field names locally, naming them, before anything is queued', async () => {
    const typeId = await freshType();
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob') });
    const notes = bob.collection(typeId);
    const note = await notes.insert({ title: 'mine' });
    for (const field of ['projectId', 'revision', 'deleteOn']) {
      const refused = await notes.update(note.id, { [field]: 'x' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SyncError);
      expect((refused as SyncError).code).toBe('SYNC_SERVER_OWNED_FIELD');
      expect((refused as Error).message).toContain(field);
    }
    await expect(notes.insert({ title: 'x', latestEventAt: 1 })).rejects.toThrow('latestEventAt');
    // A dotted name would be a path on the server (b inside a), not the field the application wrote.
    for (const write of [() => notes.update(note.id, { 'a.b': 1 }), () => notes.insert({ title: 'x', 'a.b': 1 })]) {
      const refused = await write().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SyncError);
      expect((refused as SyncError).code).toBe('SYNC_INVALID_FIELD_NAME');
      expect((refused as Error).message).toContain('a.b');
    }
    // An id the server would refuse is refused by insert itself, not by a conflict after the push.
    for (const id of ['a b', '../up', 'x'.repeat(65), '', 5]) {
      const refused = await notes.insert({ id, title: 'bad id' } as never).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SyncError);
      expect((refused as SyncError).code).toBe('SYNC_INVALID_ID');
      expect((refused as Error).message).toBe(`Id ${JSON.stringify(id)} is not one the server takes: ids hold 1 to 64 letters, digits, _ or -`);
    }
    expect(notes.list().map((document) => document.title)).toEqual(['mine']);
    await bob.sync();
    expect(notes.state(note.id)).toBe('synced');

    // A refused update changes nothing, not even the fields named beside the refused one: had it
    // marked title as this client's change, the next update would conflict with the server's title.
    await expect(notes.update(note.id, { title: 'changed', 'a.b': 1 })).rejects.toThrow('a.b');
    expect((await project.platform.call('PATCH', `${dataPath(typeId)}/${note.id}`, { token: project.owner, body: { modifier: { $set: { title: "the owner's" } }, baseRevision: 0 } })).status).toBe(200);
    await notes.update(note.id, { done: true });
    await bob.sync();
    expect(notes.state(note.id)).toBe('synced');
    expect(notes.get(note.id)).toMatchObject({ title: "the owner's", done: true, revision: 2 });
  });

  it('emits nothing after close(), even for a pull that was under way', async () => {
    const typeId = await freshType();
    await ownerCreates(typeId, { title: 'arrives during close' });
    const bob = client({ collections: [typeId], token: await project.platform.signIn('bob') });
    const events: string[] = [];
    bob.on('change', () => events.push('change'));
    bob.on('state', () => events.push('state'));
    const pulling = bob.collection(typeId).pull();
    await bob.close();
    expect((await pulling).added).toHaveLength(1);
    expect(events).toEqual([]);
    await expect(bob.collection(typeId).insert({ title: 'after close' })).rejects.toThrow('closed');
  });
});
