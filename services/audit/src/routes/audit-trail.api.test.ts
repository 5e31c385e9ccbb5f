import {
  accountDeletedMessageId,
  actionChangeMessageId,
  actionChangeSubject,
  accountDeletedSubject,
  documentEventSubject,
  membershipChangeMessageId,
  membershipChangeSubject,
  PROJECT_MEMBERS_COLLECTION,
  projectMemberId,
  type AccountDeleted,
  type ActionChange,
  type DocumentEvent,
  type MembershipChange,
} from '@platform/contracts';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditService } from '../app';
import { rebuildProjectTrail } from '../rebuild/rebuild-project';
import { TRAIL_COLLECTION, TRAIL_ENTITIES_COLLECTION } from '../trail/trail-item';

let platform: TestGateway;
const tokens: Record<string, string> = {};
const people = ['owner', 'alice', 'bob', 'stranger'] as const;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService, auditService] });
  for (const name of people) tokens[name] = await platform.signIn(name);
  // Identity's user records; bob has none, so his items show his id.
  const users = platform.context.store.collection('users');
  await users.insertOne({ id: 'owner', email: 'owner@example.org', displayName: 'Olivia Owner' });
  await users.insertOne({ id: 'alice', email: 'alice@example.org', displayName: 'Alice Adams' });
});

afterAll(async () => {
  await platform?.close();
});

async function newProject(): Promise<string> {
  return platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['readers'] }, { userId: 'bob' }] });
}

async function write(method: string, path: string, who: string, body?: unknown): Promise<any> {
  const response = await platform.call(method, path, { token: tokens[who], body });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body;
}

async function trail(projectId: string, who: string, query = ''): Promise<{ status: number; body: any }> {
  return platform.call('GET', `/api/projects/${projectId}/audit-trail${query}`, { token: tokens[who] });
}

/** Waits until the consumer has recorded `count` items of the project (the owner sees them all). */
async function settled(projectId: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const total = (await trail(projectId, 'owner', '?limit=1')).body.total;
    if (total === count) return;
    if (Date.now() > deadline) throw new Error(`the trail holds ${total} items, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET audit-trail: items and filters', () => {
  let projectId: string;
  const at: Record<string, number> = {};

  beforeAll(async () => {
    projectId = await newProject();
    const base = `/api/projects/${projectId}`;
    at.tasksType = (await write('POST', `${base}/types`, 'owner', { id: 'tasks', name: 'Tasks' })).createdAt;
    at.notesType = (await write('POST', `${base}/types`, 'owner', { id: 'notes', name: 'Notes' })).createdAt;
    at.taskCreated = (await write('POST', `${base}/types/tasks/data`, 'alice', { id: 't1', title: 'Write report' })).createdAt;
    at.noteCreated = (await write('POST', `${base}/types/notes/data`, 'bob', { id: 'n1', subject: 'Idea' })).createdAt;
    at.taskUpdated = (await write('PATCH', `${base}/types/tasks/data/t1`, 'alice', { modifier: { $set: { title: 'Write the report' } }, baseRevision: 0 })).updatedAt;
    at.noteDeleted = (await write('DELETE', `${base}/types/notes/data/n1`, 'owner')).updatedAt;
    at.appCreated = (await write('POST', `${base}/applications`, 'alice', { id: 'a1', title: { en: 'Shop' } })).createdAt;
    await settled(projectId, 7);
  });

  const all = () => [
    { entityId: 'a1', revision: 0, entityTitle: 'Shop', entityTypeId: 'applications', entityTypeName: 'Application', changeDescription: 'audit.created', userId: 'alice', userDisplayName: 'Alice Adams', timestamp: at.appCreated },
    { entityId: 'n1', revision: 1, entityTitle: 'Idea', entityTypeId: 'notes', entityTypeName: 'Notes', changeDescription: 'audit.deleted', userId: 'owner', userDisplayName: 'Olivia Owner', timestamp: at.noteDeleted },
    { entityId: 't1', revision: 1, entityTitle: 'Write the report', entityTypeId: 'tasks', entityTypeName: 'Tasks', changeDescription: 'audit.updated', userId: 'alice', userDisplayName: 'Alice Adams', timestamp: at.taskUpdated },
    { entityId: 'n1', revision: 0, entityTitle: 'Idea', entityTypeId: 'notes', entityTypeName: 'Notes', changeDescription: 'audit.created', userId: 'bob', userDisplayName: 'bob', timestamp: at.noteCreated },
    { entityId: 't1', revision: 0, entityTitle: 'Write report', entityTypeId: 'tasks', entityTypeName: 'Tasks', changeDescription: 'audit.created', userId: 'alice', userDisplayName: 'Alice Adams', timestamp: at.taskCreated },
    { entityId: 'notes', revision: 0, entityTitle: 'Notes', entityTypeId: 'types', entityTypeName: 'Type', changeDescription: 'audit.created', userId: 'owner', userDisplayName: 'Olivia Owner', timestamp: at.notesType },
    { entityId: 'tasks', revision: 0, entityTitle: 'Tasks', entityTypeId: 'types', entityTypeName: 'Type', changeDescription: 'audit.created', userId: 'owner', userDisplayName: 'Olivia Owner', timestamp: at.tasksType },
  ];

  it('lists every change newest first with the ChangeFeedItem fields and defaults page 1, limit 50', async () => {
    const response = await trail(projectId, 'bob');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: all(), total: 7, page: 1, limit: 50 });
  });

  // Each filter alone, then combined; expected = the positions in all() (newest first).
  const cases: Array<[string, () => string, number[]]> = [
    ['userId', () => '?userId=alice', [0, 2, 4]],
    ['typeId', () => '?typeId=tasks', [2, 4]],
    ['typeId of the types collection', () => '?typeId=types', [5, 6]],
    ['changeType created', () => '?changeType=created', [0, 3, 4, 5, 6]],
    ['changeType updated', () => '?changeType=updated', [2]],
    ['changeType deleted', () => '?changeType=deleted', [1]],
    ['from (inclusive)', () => `?from=${at.noteCreated}`, [0, 1, 2, 3]],
    ['to (inclusive)', () => `?to=${at.noteCreated}`, [3, 4, 5, 6]],
    ['from and to', () => `?from=${at.taskCreated}&to=${at.taskUpdated}`, [2, 3, 4]],
    ['from equals to', () => `?from=${at.taskUpdated}&to=${at.taskUpdated}`, [2]],
    ['userId and typeId', () => '?userId=alice&typeId=tasks', [2, 4]],
    ['userId and changeType', () => '?userId=owner&changeType=created', [5, 6]],
    ['typeId, changeType and range', () => `?typeId=notes&changeType=created&from=${at.tasksType}&to=${at.noteDeleted}`, [3]],
    ['all filters', () => `?userId=alice&typeId=tasks&changeType=updated&from=${at.taskCreated}&to=${at.appCreated}`, [2]],
    ['nothing matches', () => '?userId=alice&typeId=notes', []],
    ['unknown user', () => '?userId=nobody', []],
  ];
  it.each(cases)('filter: %s', async (_name, query, positions) => {
    const response = await trail(projectId, 'owner', query());
    expect(response.status).toBe(200);
    expect(response.body.items).toEqual(positions.map((n) => all()[n]));
    expect(response.body.total).toBe(positions.length);
  });

  it('pages: ceil(total / limit) pages that together hold every item once, then empty pages', async () => {
    const pages = [];
    for (let page = 1; page <= 4; page += 1) pages.push((await trail(projectId, 'owner', `?limit=3&page=${page}`)).body);
    expect(pages.map((p) => [p.page, p.limit, p.total, p.items.length])).toEqual([
      [1, 3, 7, 3],
      [2, 3, 7, 3],
      [3, 3, 7, 1],
      [4, 3, 7, 0],
    ]);
    expect(Math.ceil(pages[0].total / pages[0].limit)).toBe(3);
    expect(pages.flatMap((p) => p.items)).toEqual(all());
    const filtered = (await trail(projectId, 'owner', '?userId=alice&limit=2&page=2')).body;
    expect(filtered).toEqual({ items: [all()[4]], total: 3, page: 2, limit: 2 });
  });

  it('clamps limit to 200 and says so in the answer', async () => {
    for (const limit of [200, 201, 5000]) {
      const response = await trail(projectId, 'owner', `?limit=${limit}`);
      expect({ limit, status: response.status, answered: response.body.limit, items: response.body.items.length }).toEqual({ limit, status: 200, answered: 200, items: 7 });
    }
  });

  it('reads page, limit, from and to as numbers, as the API description types them: 3.0 and 3e0 are 3', async () => {
    const plain = (await trail(projectId, 'owner', '?limit=3&page=2')).body;
    for (const query of ['?limit=3.0&page=2.0', '?limit=3e0&page=2', `?limit=3&page=2&from=0.0&to=${Number.MAX_SAFE_INTEGER}.0`]) {
      const response = await trail(projectId, 'owner', query);
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 200, body: plain });
    }
  });

  const badInput: Array<[string, string]> = [
    ['?page=0', 'page'],
    ['?page=-1', 'page'],
    ['?page=abc', 'page'],
    ['?page=1.5', 'page'],
    ['?page=', 'page'],
    ['?page=1&page=2', 'page'],
    ['?page=1000001', 'page'],
    ['?limit=0', 'limit'],
    ['?limit=ten', 'limit'],
    ['?limit=2.5', 'limit'],
    ['?from=1.5', 'from'],
    ['?from=yesterday', 'from'],
    ['?to=-5', 'to'],
    ['?changeType=moved', 'changeType'],
    ['?typeId=has%20space', 'typeId'],
    ['?userId=', 'userId'],
    ['?from=20&to=10', 'from'],
    // Number() would read these as 16, 3 and 20.
    ['?page=0x10', 'page'],
    ['?to=0b11', 'to'],
    ['?limit=%2020', 'limit'],
    // Misspelt filters: dropped, they would answer every change as if filtered.
    ['?changetype=deleted', 'changetype'],
    ['?type=notes', 'type'],
    ['?pageSize=5', 'pageSize'],
  ];
  it.each(badInput)('bad input %s is a 400 naming %s and changes nothing', async (query, parameter) => {
    const response = await trail(projectId, 'owner', query);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(parameter);
    expect(typeof response.body.code).toBe('string');
    expect((await trail(projectId, 'owner')).body.total).toBe(7);
  });

  it('says what is wrong with a number, one issue each: not a number, a fraction, or past the safe integers', async () => {
    for (const [query, message] of [
      ['?limit=ten', 'must be a number'],
      ['?from=0x1F', 'must be a number'],
      ['?page=-1', 'must be at least 1'],
      ['?limit=-5', 'must be at least 1'],
      ['?to=-5', 'must be at least 0'],
      ['?page=1000001', 'must be at most 1000000'],
      ['?from=1.5', 'must be a whole number'],
      ['?to=99999999999999999999', `must be at most ${Number.MAX_SAFE_INTEGER}`],
      ['?limit=9007199254740993', `must be at most ${Number.MAX_SAFE_INTEGER}`],
    ]) {
      const parameter = /\?(\w+)=/.exec(query as string)?.[1];
      const response = await trail(projectId, 'owner', query);
      expect({ query, status: response.status, issues: response.body.details.issues }).toEqual({ query, status: 400, issues: [{ field: `querystring.${parameter}`, message }] });
    }
  });

  it('an inverted range names its field in details too, as validation errors do, so a form shows it beside From', async () => {
    const response = await trail(projectId, 'owner', '?from=20&to=10');
    expect(response.body).toMatchObject({ code: 'AUDIT_INVALID_RANGE', details: { field: 'from', from: 20, to: 10 } });
  });

  it('answers 401 without a session and 404 to non-members and for unknown projects', async () => {
    expect((await platform.call('GET', `/api/projects/${projectId}/audit-trail`)).status).toBe(401);
    expect((await trail(projectId, 'stranger')).status).toBe(404);
    expect((await trail('no-such-project', 'owner')).status).toBe(404);
  });
});

describe('GET audit-trail: read RLS', () => {
  it('leaves out every item of entities the caller may not read now, and total counts only the rest', async () => {
    const projectId = await newProject();
    const base = `/api/projects/${projectId}`;
    await write('POST', `${base}/types`, 'owner', { id: 'files', name: 'Files' });
    const docs = `${base}/types/files/data`;
    await write('POST', docs, 'owner', { id: 'readers-only', title: 'R', access: { read: { permission: `${projectId}::readers` } } });
    await write('PATCH', `${docs}/readers-only`, 'owner', { modifier: { $set: { title: 'R2' } }, baseRevision: 0 });
    await write('POST', docs, 'owner', { id: 'bob-only', title: 'B', access: { read: { userIds: ['bob'] } } });
    await write('POST', docs, 'alice', { id: 'open', title: 'O' });
    await settled(projectId, 5);

    const seen = async (who: string) => {
      const body = (await trail(projectId, who)).body;
      return { total: body.total, ids: body.items.map((item: { entityId: string }) => item.entityId) };
    };
    expect(await seen('owner')).toEqual({ total: 5, ids: ['open', 'bob-only', 'readers-only', 'readers-only', 'files'] });
    expect(await seen('alice')).toEqual({ total: 4, ids: ['open', 'readers-only', 'readers-only', 'files'] });
    expect(await seen('bob')).toEqual({ total: 3, ids: ['open', 'bob-only', 'files'] });
    // Filters and pages see the same restriction.
    expect((await trail(projectId, 'bob', '?typeId=files&limit=1&page=2')).body).toMatchObject({ total: 2, items: [{ entityId: 'bob-only' }] });

    // Access as it is now decides, for the entity's earlier changes too.
    await write('PATCH', `${docs}/readers-only`, 'owner', { modifier: { $unset: { 'access.read': '' } }, baseRevision: 1 });
    await write('PATCH', `${docs}/open`, 'owner', { modifier: { $set: { 'access.read.userIds': ['alice'] } }, baseRevision: 0 });
    await settled(projectId, 7);
    const bob = (await trail(projectId, 'bob')).body;
    expect(bob.total).toBe(5);
    expect(bob.items.map((item: { entityId: string; changeDescription: string }) => `${item.entityId}:${item.changeDescription}`)).toEqual([
      'readers-only:audit.accessChanged',
      'bob-only:audit.created',
      'readers-only:audit.updated',
      'readers-only:audit.created',
      'files:audit.created',
    ]);
    expect((await seen('alice')).total).toBe(6);
  });
});

describe('GET audit-trail/export', () => {
  const exported = async (projectId: string, who: string | undefined, query = '') => platform.call('GET', `/api/projects/${projectId}/audit-trail/export${query}`, who ? { token: tokens[who] } : {});
  const rows = (csv: string): Array<Record<string, string>> => parse(csv, { columns: true, bom: true });

  it('is the trail the page shows the caller, newest first, filtered alike, as a CSV file whose formula-like cells are defused', async () => {
    const projectId = await newProject();
    const base = `/api/projects/${projectId}`;
    await write('POST', `${base}/types`, 'owner', { id: 'notes', name: 'Notes' });
    const docs = `${base}/types/notes/data`;
    await write('POST', docs, 'owner', { id: 'formula', title: '=HYPERLINK("http://attacker.example","open")' });
    await write('POST', docs, 'alice', { id: 'quoted', title: 'a, "quoted"\nline' });
    await write('POST', docs, 'owner', { id: 'owner-only', title: 'secret', access: { read: { userIds: ['owner'] } } });
    await write('PATCH', `${docs}/quoted`, 'owner', { modifier: { $set: { n: 1 } }, baseRevision: 0 });
    await settled(projectId, 5);

    const answer = await exported(projectId, 'owner');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="audit-trail-${projectId}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    expect((answer.body as string).split('\n')[0]).toBe('time,timestamp,entityTypeId,entityTypeName,entityId,entityTitle,revision,changeDescription,userId,userDisplayName,permissions,previousPermissions,target,previousTarget,previousTitle,tenantId,previousTenantId,ownerId,previousOwnerId');
    // UTF-8 with a byte order mark (which reading the body as text drops), for spreadsheets.
    const raw = await fetch(`${platform.url}/api/projects/${projectId}/audit-trail/export`, { headers: { authorization: `Bearer ${tokens.owner}` } });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const owned = rows(answer.body);
    const paged = (await trail(projectId, 'owner', '?limit=200')).body.items;
    expect(owned.map((row) => [row.entityId, Number(row.revision), row.changeDescription, row.userDisplayName, Number(row.timestamp)])).toEqual(
      paged.map((item: { entityId: string; revision: number; changeDescription: string; userDisplayName: string; timestamp: number }) => [item.entityId, item.revision, item.changeDescription, item.userDisplayName, item.timestamp]),
    );
    expect(owned.map((row) => row.time)).toEqual(paged.map((item: { timestamp: number }) => new Date(item.timestamp).toISOString()));
    expect(owned.find((row) => row.entityId === 'formula')?.entityTitle).toBe(`'=HYPERLINK("http://attacker.example","open")`);
    expect(owned.find((row) => row.entityId === 'quoted')?.entityTitle).toBe('a, "quoted"\nline');

    // Read RLS and filters as on the page.
    expect(rows((await exported(projectId, 'alice')).body).map((row) => row.entityId)).toEqual(
      (await trail(projectId, 'alice', '?limit=200')).body.items.map((item: { entityId: string }) => item.entityId),
    );
    expect(rows((await exported(projectId, 'alice')).body).map((row) => row.entityId)).not.toContain('owner-only');
    expect(rows((await exported(projectId, 'owner', '?changeType=updated')).body).map((row) => `${row.entityId}:${row.revision}`)).toEqual(['quoted:1']);
  });

  it('refuses what the page refuses: no session 401, a stranger 404, a bad filter 400', async () => {
    const projectId = await newProject();
    expect((await exported(projectId, undefined)).status).toBe(401);
    expect((await exported(projectId, 'stranger')).status).toBe(404);
    expect((await exported(projectId, 'owner', '?from=5&to=1')).body).toMatchObject({ code: 'AUDIT_INVALID_RANGE' });
    expect((await exported(projectId, 'owner', '?page=2')).status).toBe(400);
    expect((await exported(projectId, 'owner', '?changeType=renamed')).status).toBe(400);
  });
});

describe('GET audit-trail: display name privacy', () => {
  it("shows an author's display name only as far as its privacy lets the reader see it, the user id otherwise", async () => {
    const users = platform.context.store.collection('users');
    const profile = (name: string, privacy?: string) => ({ displayName: name, profileFields: { displayName: { value: name, ...(privacy ? { privacy } : {}) } } });
    await users.insertOne({ id: 'carol', email: 'carol@example.org', ...profile('Carol Private', 'private') });
    await users.insertOne({ id: 'dave', email: 'dave@example.org', ...profile('Dave Projects', 'projects') });
    await users.insertOne({ id: 'erin', email: 'erin@example.org', ...profile('Erin Public', 'public') });
    await users.insertOne({ id: 'frank', email: 'frank@example.org', ...profile('Frank Default') });
    for (const name of ['carol', 'dave', 'erin', 'frank']) tokens[name] = await platform.signIn(name);
    tokens.root = await platform.signIn('root', { platformOwner: true });
    const projectId = await platform.seedProject({ ownerId: 'owner', members: ['alice', 'carol', 'dave', 'erin', 'frank'].map((userId) => ({ userId })) });
    await write('POST', `/api/projects/${projectId}/types`, 'owner', { id: 'posts', name: 'Posts' });
    for (const author of ['carol', 'dave', 'erin', 'frank']) await write('POST', `/api/projects/${projectId}/types/posts/data`, author, { id: author, title: author });
    await settled(projectId, 5);
    // Dave and Erin leave: alice shares no project with them any more (tenant-level owners aside).
    await platform.context.store.collection(PROJECT_MEMBERS_COLLECTION).deleteMany({ id: { $in: [projectMemberId(projectId, 'dave'), projectMemberId(projectId, 'erin')] } });

    const names = async (who: string) =>
      Object.fromEntries(((await trail(projectId, who)).body.items as Array<{ userId: string; userDisplayName: string }>).map((item) => [item.userId, item.userDisplayName]));
    expect(await names('alice')).toEqual({ carol: 'carol', dave: 'dave', erin: 'Erin Public', frank: 'Frank Default', owner: 'Olivia Owner' });
    expect(await names('carol')).toEqual({ carol: 'Carol Private', dave: 'dave', erin: 'Erin Public', frank: 'Frank Default', owner: 'Olivia Owner' });
    expect(await names('root')).toEqual({ carol: 'Carol Private', dave: 'Dave Projects', erin: 'Erin Public', frank: 'Frank Default', owner: 'Olivia Owner' });

    // Privacy as it is now decides, for items written before.
    await users.updateOne({ id: 'frank' }, { $set: { 'profileFields.displayName.privacy': 'private' } });
    expect((await names('alice')).frank).toBe('frank');
    expect(JSON.stringify((await trail(projectId, 'alice')).body)).not.toMatch(/Carol Private|Frank Default|Dave Projects/);
  });

  it("hides a deleted account's name from everyone at once, platform owners too, and erases it from the stored items when the deletion is announced", async () => {
    const users = platform.context.store.collection('users');
    await users.insertOne({ id: 'gina', email: 'gina@example.org', displayName: 'Gina Gone', profileFields: { displayName: { value: 'Gina Gone', privacy: 'public' } } });
    tokens.gina = await platform.signIn('gina');
    tokens.root ??= await platform.signIn('root', { platformOwner: true });
    const projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'gina' }] });
    await write('POST', `/api/projects/${projectId}/types`, 'owner', { id: 'posts', name: 'Posts' });
    await write('POST', `/api/projects/${projectId}/types/posts/data`, 'gina', { id: 'by-gina', title: 'Gina was here' });
    await settled(projectId, 2);
    const names = async (who: string) =>
      Object.fromEntries(((await trail(projectId, who)).body.items as Array<{ userId: string; userDisplayName: string }>).map((item) => [item.userId, item.userDisplayName]));
    const stored = async () => Object.fromEntries((await platform.context.store.collection(TRAIL_COLLECTION).find({ projectId })).map((item) => [item.userId, item.userDisplayName]));
    expect(await names('root')).toEqual({ gina: 'Gina Gone', owner: 'Olivia Owner' });

    // Identity erases the record: no reader sees the name from then on.
    await users.deleteMany({ id: 'gina' });
    expect(await names('root')).toEqual({ gina: 'gina', owner: 'Olivia Owner' });
    expect(await names('owner')).toEqual({ gina: 'gina', owner: 'Olivia Owner' });
    expect(await stored()).toEqual({ gina: 'Gina Gone', owner: 'Olivia Owner' });

    // And announces the deletion: the stored items lose the name, the other authors' keep theirs.
    const deleted: AccountDeleted = { userId: 'gina', deletedAt: Date.now() };
    await platform.context.bus.publish(accountDeletedSubject('gina'), deleted, { msgId: accountDeletedMessageId('gina') });
    await vi.waitFor(async () => expect(await stored()).toEqual({ gina: 'gina', owner: 'Olivia Owner' }), { timeout: 5_000 });
    // A repeated announcement (another message id, past the bus's duplicate window) changes nothing.
    await platform.context.bus.publish(accountDeletedSubject('gina'), deleted, { msgId: `${accountDeletedMessageId('gina')}#again` });
    await write('POST', `/api/projects/${projectId}/types/posts/data`, 'owner', { id: 'marker', title: 'M' });
    await settled(projectId, 3);
    expect(await stored()).toEqual({ gina: 'gina', owner: 'Olivia Owner' });
  });
});

describe('idempotence and rebuild', () => {
  // Everything stored but accessRevision, which records where an access was first seen and so depends on delivery order.
  const storedItems = async (projectId: string) =>
    (await platform.context.store.collection(TRAIL_COLLECTION).find({ projectId }, { sort: { id: 1 } })).map(({ accessRevision, ...item }) => item);
  const storedEntities = async (projectId: string) =>
    (await platform.context.store.collection(TRAIL_ENTITIES_COLLECTION).find({ projectId }, { sort: { id: 1 } })).map(({ accessRevision, ...record }) => record);

  it('a redelivered event never makes a second item', async () => {
    const projectId = await newProject();
    await write('POST', `/api/projects/${projectId}/types`, 'owner', { id: 'things', name: 'Things' });
    const created = await write('POST', `/api/projects/${projectId}/types/things/data`, 'alice', { id: 'x', title: 'X' });
    await settled(projectId, 2);
    const before = await storedItems(projectId);
    const collection = `tenant-${projectId}-things`;
    const event: DocumentEvent = {
      projectId,
      typeId: 'things',
      collection,
      kind: 'created',
      entityId: 'x',
      revision: 0,
      change: created.changes[0],
      entity: { ...created, changes: undefined },
    };
    // The same change delivered again (under other bus message ids, so the bus does not drop them).
    for (const copy of [1, 2, 3]) await platform.context.bus.publish(documentEventSubject(projectId, 'things', 'created'), event, { msgId: `${collection}/x/0#redelivery-${copy}` });
    await write('POST', `/api/projects/${projectId}/types/things/data`, 'alice', { id: 'marker', title: 'M' });
    await settled(projectId, 3);
    const after = await storedItems(projectId);
    expect(after.filter((item) => item.entityId === 'x')).toEqual(before.filter((item) => item.entityId === 'x'));
    expect(after).toHaveLength(3);
  });

  it('the rebuild equals the live trail on a generated project', async () => {
    const projectId = await newProject();
    const base = `/api/projects/${projectId}`;
    let changes = 0;
    const typeIds = ['orders', 'customers', 'tickets'];
    for (const id of typeIds) {
      await write('POST', `${base}/types`, 'owner', { id, name: id.toUpperCase() });
      changes += 1;
    }
    await write('POST', `${base}/applications`, 'owner', { id: 'app', title: { en: 'App' } });
    await write('PATCH', `${base}/applications/app`, 'owner', { modifier: { $set: { 'title.en': 'App 2' } }, baseRevision: 0 });
    changes += 2;
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const authors = ['owner', 'alice', 'bob'];
    const live: Array<{ typeId: string; id: string; revision: number; deleted: boolean }> = [];
    for (let n = 0; n < 60; n += 1) {
      const action = live.length === 0 ? 0 : random(5);
      const who = authors[random(authors.length)] as string;
      if (action === 0) {
        const typeId = typeIds[random(typeIds.length)] as string;
        const body = random(2) ? { id: `d${n}`, title: `Doc ${n}` } : { id: `d${n}`, name: `Named ${n}`, access: { read: { userIds: ['bob'] } } };
        await write('POST', `${base}/types/${typeId}/data`, 'access' in body ? 'owner' : who, body);
        live.push({ typeId, id: `d${n}`, revision: 0, deleted: false });
      } else {
        const target = live[random(live.length)]!;
        if (target.deleted) continue;
        const path = `${base}/types/${target.typeId}/data/${target.id}`;
        let answer: { revision: number };
        if (action === 1) {
          answer = await write('DELETE', path, 'owner');
          target.deleted = true;
        } else if (action === 2) {
          answer = await write('PATCH', path, 'owner', { modifier: { $set: { 'access.read.userIds': [authors[random(3)]] } }, baseRevision: target.revision });
        } else {
          answer = await write('PATCH', path, 'owner', { modifier: { $set: { title: `Edit ${n}` }, $inc: { edits: 1 } }, baseRevision: target.revision });
        }
        // A modifier that changes nothing (the same access again) makes no change and no item.
        if (answer.revision === target.revision) continue;
        target.revision = answer.revision;
      }
      changes += 1;
    }
    // A type renamed after its documents changed: items keep the name the type had then.
    await write('PATCH', `${base}/types/orders`, 'owner', { modifier: { $set: { name: 'Purchase orders' } }, baseRevision: 0 });
    changes += 1;
    await settled(projectId, changes);

    const liveItems = await storedItems(projectId);
    const liveEntities = await storedEntities(projectId);
    expect(liveItems).toHaveLength(changes);
    expect(new Set(liveItems.map((item) => item.changeDescription))).toEqual(new Set(['audit.created', 'audit.updated', 'audit.deleted', 'audit.accessChanged']));
    expect(liveItems.find((item) => item.entityTypeId === 'orders')?.entityTypeName).toBe('ORDERS');

    await platform.context.store.collection(TRAIL_COLLECTION).deleteMany({ projectId });
    expect((await trail(projectId, 'owner')).body.total).toBe(0);
    const report = await rebuildProjectTrail(platform.context.store, projectId);
    expect(report.items).toBe(changes);
    expect(await storedItems(projectId)).toEqual(liveItems);
    expect(await storedEntities(projectId)).toEqual(liveEntities);
  });

  it("a rebuild keeps the membership changes and saved actions, which no entity history holds, and the actions' access", async () => {
    const projectId = await newProject();
    await write('POST', `/api/projects/${projectId}/types`, 'owner', { id: 'things', name: 'Things' });
    const joined: MembershipChange = { id: 'joined', projectId, userId: 'bob', change: 'added', permissions: [], changedBy: 'owner', timestamp: Date.now() };
    await platform.context.bus.publish(membershipChangeSubject(projectId), joined, { msgId: membershipChangeMessageId(joined.id) });
    const saved: ActionChange = { projectId, actionId: 'a1', revision: 0, title: 'Notify', access: { read: { userIds: ['owner'] } }, change: 'created', changedBy: 'owner', timestamp: Date.now() };
    await platform.context.bus.publish(actionChangeSubject(projectId), saved, { msgId: actionChangeMessageId(saved) });
    await settled(projectId, 3);
    const live = await storedItems(projectId);
    const liveEntities = await storedEntities(projectId);

    await rebuildProjectTrail(platform.context.store, projectId);
    expect(await storedItems(projectId)).toEqual(live);
    expect(await storedEntities(projectId)).toEqual(liveEntities);
    expect((await trail(projectId, 'owner', '?typeId=project.members')).body.items).toEqual([
      expect.objectContaining({ entityId: 'bob', entityTypeId: 'project.members', changeDescription: 'audit.memberAdded', userId: 'owner', userDisplayName: 'Olivia Owner' }),
    ]);
    expect((await trail(projectId, 'owner', '?typeId=project.actions')).body.items).toEqual([expect.objectContaining({ entityId: 'a1', entityTitle: 'Notify', revision: 0 })]);
    // The action's read rule leaves Alice out: its item is hers neither to see nor to count.
    expect((await trail(projectId, 'alice', '?typeId=project.actions')).body.total).toBe(0);
  });
});
