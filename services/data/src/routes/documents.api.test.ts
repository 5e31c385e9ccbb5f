import type { BusMessage } from '@platform/bus';
import type { DocumentEvent } from '@platform/contracts';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
const tokens: Record<'owner' | 'alice' | 'bob' | 'stranger', string> = { owner: '', alice: '', bob: '', stranger: '' };
const events: Array<BusMessage<DocumentEvent>> = [];

async function createType(body: Record<string, unknown>) {
  const response = await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await platform.signIn(name);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['editors'] }, { userId: 'bob' }], access: { update: { userIds: ['owner'] } } });
  await platform.context.bus.subscribe<DocumentEvent>({ durable: 'documents-api-test', filter: 'platform.docs.>', handler: async (message) => void events.push(message) });
});

afterAll(async () => {
  await platform?.close();
});

describe('types', () => {
  it('creates, reads and refuses reserved or malformed ids', async () => {
    const typeId = await createType({ id: 'tasks', name: 'Tasks' });
    expect(typeId).toBe('tasks');
    expect((await platform.call('GET', `/api/projects/${projectId}/types/tasks`, { token: tokens.bob })).body).toMatchObject({ id: 'tasks', name: 'Tasks', revision: 0 });
    for (const id of ['types', 'applications', 'has space', '../etc']) {
      const response = await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { id, name: 'x' } });
      expect({ id, status: response.status }).toEqual({ id, status: 400 });
    }
    const noName = await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { syncType: 'remote' } });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toContain('name');
  });

  it('answers 404 for documents of a type that does not exist', async () => {
    const response = await platform.call('GET', `/api/projects/${projectId}/types/nope/data`, { token: tokens.owner });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('DATA_TYPE_NOT_FOUND');
  });
});

describe('documents', () => {
  let typeId: string;
  beforeAll(async () => {
    typeId = await createType({ name: 'Notes' });
  });
  const path = () => `/api/projects/${projectId}/types/${typeId}/data`;

  it('creates with revision 0, timestamps and the creation as first change', async () => {
    const response = await platform.call('POST', path(), { token: tokens.alice, body: { title: 'First' } });
    expect(response.status).toBe(201);
    const doc = response.body;
    expect(doc).toMatchObject({ title: 'First', revision: 0 });
    expect(doc.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.createdAt).toBe(doc.updatedAt);
    expect(doc.changes).toEqual([{ userId: 'alice', timestamp: doc.createdAt, baseRevision: -1, modifier: { $set: { title: 'First' } } }]);
    expect(JSON.stringify(doc)).not.toContain('_outbox');
  });

  it('answers a method documents do not take (PUT, where they change with PATCH) with 405 naming the ones they take', async () => {
    const created = await platform.call('POST', path(), { token: tokens.alice, body: { title: 'kept' } });
    const put = await platform.call('PUT', `${path()}/${created.body.id}`, { token: tokens.alice, body: { title: 'replaced' } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect(put.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED', details: { allowed: ['GET', 'PATCH', 'DELETE'] } });
    expect((await platform.call('GET', `${path()}/${created.body.id}`, { token: tokens.alice })).body).toMatchObject({ title: 'kept', revision: 0 });
  });

  it('refuses a duplicate id with 409', async () => {
    expect((await platform.call('POST', path(), { token: tokens.alice, body: { id: 'dup', title: 'a' } })).status).toBe(201);
    const again = await platform.call('POST', path(), { token: tokens.alice, body: { id: 'dup', title: 'b' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'An entity with id dup already exists', code: 'DATA_DUPLICATE_ID', details: { id: 'dup' } });
  });

  it("refuses a deleted entity's id with 409 saying it was deleted, and leaves the deleted entity as it was", async () => {
    expect((await platform.call('POST', path(), { token: tokens.alice, body: { id: 'gone', title: 'a' } })).status).toBe(201);
    const deleted = await platform.call('DELETE', `${path()}/gone`, { token: tokens.alice });
    expect(deleted.status).toBe(200);
    const again = await platform.call('POST', path(), { token: tokens.alice, body: { id: 'gone', title: 'b' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: "The entity with id gone was deleted; a deleted entity's id is not reused: create it under another id",
      code: 'DATA_DUPLICATE_ID',
      details: { id: 'gone', deleted: true },
    });
    const stored = await platform.call('GET', `${path()}/gone?includeChanges=true`, { token: tokens.alice });
    expect(stored.body).toMatchObject({ title: 'a', revision: 1, deletedAt: deleted.body.deletedAt });
    expect(stored.body.changes).toHaveLength(2);
  });

  it('refuses an id outside the id pattern with 400 naming body.id, as every validation failure does, and stores nothing', async () => {
    for (const id of ['', '../../etc', 'a b', 'x'.repeat(65)]) {
      const refused = await platform.call('POST', path(), { token: tokens.alice, body: { id, title: 'refused id' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'Invalid body.id: ids hold 1 to 64 letters, digits, _ or -',
        code: 'VALIDATION_FAILED',
        details: { issues: [{ field: 'body.id', message: 'ids hold 1 to 64 letters, digits, _ or -' }] },
      });
    }
    const listed = await platform.call('GET', `${path()}?updatedAt=0`, { token: tokens.alice });
    expect(listed.body.items.filter((item: { title?: string }) => item.title === 'refused id')).toEqual([]);
  });

  it('patches with baseRevision, omits changes on GET unless asked', async () => {
    const creation = await platform.call('POST', path(), { token: tokens.alice, body: { title: 'Draft', count: 1 } });
    const created = creation.body;
    expect(creation.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Write answers are sent as text built from each change's kept JSON: it must read exactly as the zod-encoded GET.
    expect(created).toEqual((await platform.call('GET', `${path()}/${created.id}?includeChanges=true`, { token: tokens.alice })).body);
    const patched = await platform.call('PATCH', `${path()}/${created.id}`, { token: tokens.bob, body: { modifier: { $set: { title: 'Final' }, $inc: { count: 2 } }, baseRevision: 0 } });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(patched.body).toMatchObject({ title: 'Final', count: 3, revision: 1 });
    expect(patched.body.changes).toHaveLength(2);
    expect(patched.body.changes[1]).toMatchObject({ userId: 'bob', baseRevision: 0, modifier: { $set: { title: 'Final' }, $inc: { count: 2 } } });
    const plain = await platform.call('GET', `${path()}/${created.id}`, { token: tokens.bob });
    expect(plain.body.changes).toBeUndefined();
    const withChanges = await platform.call('GET', `${path()}/${created.id}?includeChanges=true`, { token: tokens.bob });
    expect(withChanges.body.changes).toHaveLength(2);
    // The PATCH answer skips zod's re-encoding: it must read exactly as the zod-encoded GET, internals left out.
    expect(patched.body).toEqual(withChanges.body);
    expect(Object.keys(patched.body).filter((key) => key.startsWith('_'))).toEqual([]);
  });

  it('answers 409 with field-by-field conflict details when baseRevision is stale', async () => {
    const created = (await platform.call('POST', path(), { token: tokens.alice, body: { title: 'Base', body: 'text' } })).body;
    await platform.call('PATCH', `${path()}/${created.id}`, { token: tokens.alice, body: { modifier: { $set: { title: 'Theirs' } }, baseRevision: 0 } });
    const conflict = await platform.call('PATCH', `${path()}/${created.id}`, { token: tokens.bob, body: { modifier: { $set: { title: 'Mine', body: 'mine' } }, baseRevision: 0 } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('DATA_REVISION_CONFLICT');
    expect(conflict.body.details).toMatchObject({
      baseRevision: 0,
      currentRevision: 1,
      current: { id: created.id, title: 'Theirs', revision: 1 },
      changesSince: [{ userId: 'alice', baseRevision: 0, modifier: { $set: { title: 'Theirs' } } }],
      fields: [
        { path: 'title', base: 'Base', theirs: 'Theirs', mine: 'Mine', serverTouched: true },
        { path: 'body', base: 'text', theirs: 'text', mine: 'mine', serverTouched: false },
      ],
    });
    const unchanged = await platform.call('GET', `${path()}/${created.id}`, { token: tokens.bob });
    expect(unchanged.body).toMatchObject({ title: 'Theirs', revision: 1 });
  });

  it('lets exactly one of 50 concurrent PATCHes with the same baseRevision win', async () => {
    const created = (await platform.call('POST', path(), { token: tokens.alice, body: { n: 0 } })).body;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => platform.call('PATCH', `${path()}/${created.id}`, { token: tokens.alice, body: { modifier: { $set: { n: i + 1 } }, baseRevision: 0 } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const final = await platform.call('GET', `${path()}/${created.id}?includeChanges=true`, { token: tokens.alice });
    expect(final.body.revision).toBe(1);
    expect(final.body.changes).toHaveLength(2);
  });

  it('requires baseRevision and a valid modifier, changing nothing otherwise', async () => {
    const created = (await platform.call('POST', path(), { token: tokens.alice, body: { title: 'Keep' } })).body;
    const cases: Array<[string, unknown]> = [
      ['baseRevision', { modifier: { $set: { title: 'x' } } }],
      ['modifier', { baseRevision: 0 }],
      ['$where', { modifier: { $where: '1' }, baseRevision: 0 }],
      ['revision', { modifier: { $set: { revision: 7 } }, baseRevision: 0 }],
      ['access', { modifier: { $set: { 'access.read.userIds': ['alice'] } }, baseRevision: 0 }],
      ['__proto__', { modifier: { $set: { '__proto__.x': 1 } }, baseRevision: 0 }],
    ];
    for (const [named, body] of cases) {
      const response = await platform.call('PATCH', `${path()}/${created.id}`, { token: tokens.alice, body });
      expect({ named, status: response.status }).toEqual({ named, status: 400 });
      expect(response.body.error).toContain(named);
    }
    const after = await platform.call('GET', `${path()}/${created.id}`, { token: tokens.alice });
    expect(after.body).toMatchObject({ title: 'Keep', revision: 0 });
  });

  it('soft-deletes: deletedAt, a revision and a change; lists hide it, pulls show it', async () => {
    const since = Date.now() - 1;
    const created = (await platform.call('POST', path(), { token: tokens.alice, body: { title: 'Gone soon' } })).body;
    const deleted = await platform.call('DELETE', `${path()}/${created.id}`, { token: tokens.alice });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ revision: 1, deletedAt: expect.any(Number) });
    expect(deleted.body.changes[1].modifier).toEqual({ $set: { deletedAt: deleted.body.deletedAt } });
    const list = await platform.call('GET', path(), { token: tokens.alice });
    expect(list.body.items.map((item: { id: string }) => item.id)).not.toContain(created.id);
    const pull = await platform.call('GET', `${path()}?updatedAt=${since}`, { token: tokens.alice });
    expect(pull.body.items.find((item: { id: string }) => item.id === created.id)).toMatchObject({ deletedAt: deleted.body.deletedAt });
    expect((await platform.call('DELETE', `${path()}/${created.id}`, { token: tokens.alice })).status).toBe(404);
    expect((await platform.call('PATCH', `${path()}/${created.id}`, { token: tokens.alice, body: { modifier: { $set: { a: 1 } }, baseRevision: 1 } })).status).toBe(404);
  });

  it('publishes created, updated and deleted events with message ids', async () => {
    const created = (await platform.call('POST', path(), { token: tokens.alice, body: { title: 'Evented' } })).body;
    await platform.call('PATCH', `${path()}/${created.id}`, { token: tokens.alice, body: { modifier: { $set: { title: 'Changed' } }, baseRevision: 0 } });
    await platform.call('DELETE', `${path()}/${created.id}`, { token: tokens.alice });
    await expect.poll(() => events.filter((e) => e.data.entityId === created.id).length).toBe(3);
    const mine = events.filter((e) => e.data.entityId === created.id);
    const collection = `tenant-${projectId}-${typeId}`;
    expect(mine.map((e) => [e.subject, e.msgId])).toEqual([
      [`platform.docs.${projectId}.${typeId}.created`, `${collection}/${created.id}/0`],
      [`platform.docs.${projectId}.${typeId}.updated`, `${collection}/${created.id}/1`],
      [`platform.docs.${projectId}.${typeId}.deleted`, `${collection}/${created.id}/2`],
    ]);
    expect(mine[1]?.data).toMatchObject({ kind: 'updated', revision: 1, change: { userId: 'alice', baseRevision: 0 } });
  });
});

describe('pull', () => {
  it('returns everything with updatedAt=0, only later changes otherwise, and pages with a cursor', async () => {
    const typeId = await createType({ name: 'Pulled' });
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push((await platform.call('POST', path, { token: tokens.alice, body: { i } })).body.id);
    const all = await platform.call('GET', `${path}?updatedAt=0`, { token: tokens.alice });
    expect(all.body.items.map((item: { id: string }) => item.id)).toEqual(ids);
    const third = all.body.items[2].updatedAt as number;
    const later = await platform.call('GET', `${path}?updatedAt=${third}`, { token: tokens.alice });
    expect(later.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(3));

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await platform.call('GET', `${path}?updatedAt=0&limit=3${cursor ? `&cursor=${cursor}` : ''}`, { token: tokens.alice });
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await platform.call('GET', `${path}?updatedAt=0&cursor=garbage`, { token: tokens.alice })).status).toBe(400);
    expect((await platform.call('GET', `${path}?updatedAt=-5`, { token: tokens.alice })).status).toBe(400);
  });

  it('refuses a misspelt parameter by name instead of answering every document as if it were a pull', async () => {
    const typeId = await createType({ name: 'Misspelt pull' });
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    await platform.call('POST', path, { token: tokens.alice, body: { i: 1 } });
    const takes = 'unknown query parameter (this route takes updatedAt, includeChanges, limit, cursor)';
    const misspelt = await platform.call('GET', `${path}?updatedat=${Date.now()}`, { token: tokens.alice });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toEqual({ error: `Invalid querystring.updatedat: ${takes}`, code: 'VALIDATION_FAILED', details: { issues: [{ field: 'querystring.updatedat', message: takes }] } });
    const one = await platform.call('GET', `${path}/missing?include_changes=true`, { token: tokens.alice });
    expect(one.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'querystring.include_changes', message: 'unknown query parameter (this route takes includeChanges)' }] } });
  });
});

describe('RLS', () => {
  it('filters reads, guards update and delete, and hides the project from strangers', async () => {
    const typeId = await createType({ name: 'Secrets' });
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    const secret = (await platform.call('POST', path, { token: tokens.owner, body: { title: 'Editors only', access: { read: { permission: `${projectId}::editors` }, update: { userIds: ['bob'] } } } })).body;
    const open = (await platform.call('POST', path, { token: tokens.owner, body: { title: 'Open' } })).body;

    const ids = async (token: string, query = '') => (await platform.call('GET', `${path}${query}`, { token })).body.items.map((i: { id: string }) => i.id).sort();
    expect(await ids(tokens.alice)).toEqual([secret.id, open.id].sort());
    expect(await ids(tokens.bob)).toEqual([open.id]);
    expect(await ids(tokens.bob, '?updatedAt=0')).toEqual([open.id]);
    expect((await platform.call('GET', `${path}/${secret.id}`, { token: tokens.bob })).status).toBe(404);

    const alicePatch = await platform.call('PATCH', `${path}/${secret.id}`, { token: tokens.alice, body: { modifier: { $set: { title: 'x' } }, baseRevision: 0 } });
    expect(alicePatch.status).toBe(403);
    expect((await platform.call('PATCH', `${path}/${secret.id}`, { token: tokens.owner, body: { modifier: { $set: { title: 'Owner may' } }, baseRevision: 0 } })).status).toBe(200);

    expect((await platform.call('GET', path, { token: tokens.stranger })).status).toBe(404);
    expect((await platform.call('GET', path)).status).toBe(401);
  });

  it('applies the type defaultAccess when the body has none, and only project admins set access', async () => {
    const typeId = await createType({ name: 'Defaults', defaultAccess: { delete: { userIds: ['owner'] } } });
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    const created = (await platform.call('POST', path, { token: tokens.alice, body: { title: 'x' } })).body;
    expect(created.access).toEqual({ delete: { userIds: ['owner'] } });
    expect((await platform.call('DELETE', `${path}/${created.id}`, { token: tokens.alice })).status).toBe(403);
    const withAccess = await platform.call('POST', path, { token: tokens.alice, body: { title: 'y', access: { read: { userIds: ['alice'] } } } });
    expect(withAccess.status).toBe(400);
    expect(withAccess.body.error).toContain('access');
  });
});

describe('deleted documents (tombstones)', () => {
  let typeId: string;
  beforeAll(async () => {
    typeId = await createType({ name: 'Tombstones' });
  });
  const path = () => `/api/projects/${projectId}/types/${typeId}/data`;

  async function deletedDocument(body: Record<string, unknown>) {
    const created = (await platform.call('POST', path(), { token: tokens.owner, body })).body;
    return (await platform.call('DELETE', `${path()}/${created.id}`, { token: tokens.owner })).body;
  }

  async function pulled(token: string, id: string, query = '') {
    const pull = await platform.call('GET', `${path()}?updatedAt=0${query}`, { token });
    expect(pull.status).toBe(200);
    return pull.body.items.find((item: { id: string }) => item.id === id);
  }

  it('a pull, with or without includeChanges, carries only id, revision, timestamps, deletedAt and access', async () => {
    const deleted = await deletedDocument({ title: 'Confidential plan', access: { update: { userIds: ['owner'] } } });
    const tombstone = { id: deleted.id, revision: 1, createdAt: deleted.createdAt, updatedAt: deleted.updatedAt, deletedAt: deleted.deletedAt, access: { update: { userIds: ['owner'] } } };
    for (const query of ['', '&includeChanges=true']) {
      expect(await pulled(tokens.bob, deleted.id, query)).toEqual(tombstone);
      expect(await pulled(tokens.owner, deleted.id, query)).toEqual(tombstone);
    }
    const live = (await platform.call('POST', path(), { token: tokens.owner, body: { title: 'Still here' } })).body;
    expect(await pulled(tokens.bob, live.id, '&includeChanges=true')).toMatchObject({ title: 'Still here', changes: [expect.any(Object)] });
  });

  it('the OpenAPI page item schema says what a tombstone carries', async () => {
    const page = (await platform.call('GET', '/api/openapi.json')).body.paths['/api/projects/{projectId}/types/{typeId}/data'].get.responses['200'].content['application/json'].schema;
    const tombstone = page.properties.items.items.anyOf.find((item: { additionalProperties?: unknown }) => item.additionalProperties === false);
    expect(Object.keys(tombstone.properties)).toEqual(['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'access']);
    expect(tombstone.required).toContain('deletedAt');
  });

  it('the OpenAPI document says a created document is free JSON that follows its type\'s schema, and types are not described so', async () => {
    const paths = (await platform.call('GET', '/api/openapi.json')).body.paths;
    const bodyOf = (path: string) => paths[path].post.requestBody.content['application/json'].schema.description as string;
    expect(bodyOf('/api/projects/{projectId}/types/{typeId}/data')).toMatch(/free JSON.*JSON Schema.*types\.d\.ts/);
    expect(bodyOf('/api/projects/{projectId}/types')).not.toMatch(/JSON Schema/);
  });

  it('GET of a deleted document and its history answer only those its read rule lets in', async () => {
    const deleted = await deletedDocument({ title: 'Editors only', access: { read: { permission: `${projectId}::editors` } } });
    const readByAlice = await platform.call('GET', `${path()}/${deleted.id}?includeChanges=true`, { token: tokens.alice });
    expect(readByAlice.status).toBe(200);
    expect(readByAlice.body).toMatchObject({ title: 'Editors only', deletedAt: deleted.deletedAt, changes: [expect.any(Object), expect.any(Object)] });
    for (const query of ['', '?includeChanges=true']) {
      const readByBob = await platform.call('GET', `${path()}/${deleted.id}${query}`, { token: tokens.bob });
      expect({ query, status: readByBob.status, text: JSON.stringify(readByBob.body).includes('Editors only') }).toEqual({ query, status: 404, text: false });
    }
    expect(await pulled(tokens.bob, deleted.id)).toBeUndefined();
  });

  it('the owner restricts a deleted document with a PATCH of its access; then a member without the permission no longer pulls or reads it', async () => {
    const deleted = await deletedDocument({ title: 'Deleted but kept' });
    expect(await pulled(tokens.bob, deleted.id)).toMatchObject({ id: deleted.id });

    const restricted = await platform.call('PATCH', `${path()}/${deleted.id}`, {
      token: tokens.owner,
      body: { modifier: { $set: { access: { read: { permission: `${projectId}::editors` } } } }, baseRevision: 1 },
    });
    expect(restricted.status).toBe(200);
    expect(restricted.body).toMatchObject({ revision: 2, deletedAt: deleted.deletedAt, access: { read: { permission: `${projectId}::editors` } } });

    const since = deleted.updatedAt;
    expect(await pulled(tokens.bob, deleted.id)).toBeUndefined();
    expect((await platform.call('GET', `${path()}?updatedAt=${since}`, { token: tokens.bob })).body.items.map((item: { id: string }) => item.id)).not.toContain(deleted.id);
    expect((await platform.call('GET', `${path()}/${deleted.id}`, { token: tokens.bob })).status).toBe(404);
    expect(await pulled(tokens.alice, deleted.id)).toEqual({
      id: deleted.id,
      revision: 2,
      createdAt: deleted.createdAt,
      updatedAt: restricted.body.updatedAt,
      deletedAt: deleted.deletedAt,
      access: { read: { permission: `${projectId}::editors` } },
    });
  });

  it('anything but an access change on a deleted document stays 404, and access needs the project update permission; nothing changes', async () => {
    const deleted = await deletedDocument({ title: 'Frozen' });
    const url = `${path()}/${deleted.id}`;
    for (const modifier of [{ $set: { title: 'Back' } }, { $set: { title: 'Back', 'access.read.userIds': [] } }, { $rename: { access: 'title' } }]) {
      const response = await platform.call('PATCH', url, { token: tokens.owner, body: { modifier, baseRevision: 1 } });
      expect({ modifier, status: response.status, error: response.body.error }).toEqual({ modifier, status: 404, error: 'Entity is deleted' });
    }
    const byMember = await platform.call('PATCH', url, { token: tokens.alice, body: { modifier: { $set: { 'access.read.userIds': ['alice'] } }, baseRevision: 1 } });
    expect(byMember.status).toBe(400);
    expect(byMember.body.error).toContain('access');
    const badAccess = await platform.call('PATCH', url, { token: tokens.owner, body: { modifier: { $set: { 'access.read': { $where: '1' } } }, baseRevision: 1 } });
    expect(badAccess.status).toBe(400);
    expect(badAccess.body.error).toContain('access.read.$where');
    const after = await platform.call('GET', `${url}?includeChanges=true`, { token: tokens.owner });
    expect(after.body).toMatchObject({ title: 'Frozen', revision: 1 });
    expect(after.body.access).toBeUndefined();
    expect(after.body.changes).toHaveLength(2);
  });
});

describe('type schemas and sample data', () => {
  it('validates writes against the schema, naming the field, and changes nothing', async () => {
    const typeId = await createType({ name: 'Typed', schema: { fields: { title: { type: 'string', required: true }, rating: { type: 'integer', minimum: 1, maximum: 5 } } } });
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    const missing = await platform.call('POST', path, { token: tokens.alice, body: { rating: 3 } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'DATA_SCHEMA_VIOLATION', error: 'Invalid title: is required' });
    const created = (await platform.call('POST', path, { token: tokens.alice, body: { title: 'ok', rating: 3 } })).body;
    const bad = await platform.call('PATCH', `${path}/${created.id}`, { token: tokens.alice, body: { modifier: { $inc: { rating: 10 } }, baseRevision: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('rating');
    expect((await platform.call('GET', `${path}/${created.id}`, { token: tokens.alice })).body).toMatchObject({ rating: 3, revision: 0 });

    for (const schemaPath of [`/api/projects/${projectId}/types/${typeId}/schema`, `/api/schemas/projects/${projectId}/types/${typeId}`]) {
      const schema = await platform.call('GET', schemaPath, { token: tokens.bob });
      expect(schema.status).toBe(200);
      expect(schema.body.schema).toMatchObject({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] });
    }
    const samples = await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/sample-data?count=4`, { token: tokens.bob });
    expect(samples.body.items).toHaveLength(4);
    for (const sample of samples.body.items) expect(sample.rating).toBeGreaterThanOrEqual(1);
    const stored = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/sample-data`, { token: tokens.bob, body: { count: 2 } });
    expect(stored.status).toBe(201);
    expect(stored.body.items).toHaveLength(2);
    expect((await platform.call('GET', path, { token: tokens.bob })).body.items).toHaveLength(3);
    // A misspelt key is refused by name, not taken for the default of 5 documents.
    const misspelt = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/sample-data`, { token: tokens.bob, body: { amount: 50 } });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ field: 'body', message: 'Unrecognized key: "amount"' }] } });
    expect((await platform.call('GET', path, { token: tokens.bob })).body.items).toHaveLength(3);
  });

  it('answers the four schema and sample-data routes with 401 "Unauthorized" without a session', async () => {
    const typeId = await createType({ name: 'Guarded' });
    for (const [method, url] of [
      ['GET', `/api/projects/${projectId}/types/${typeId}/schema`],
      ['GET', `/api/schemas/projects/${projectId}/types/${typeId}`],
      ['GET', `/api/projects/${projectId}/types/${typeId}/sample-data`],
      ['POST', `/api/projects/${projectId}/types/${typeId}/sample-data`],
    ] as const) {
      const response = await platform.call(method, url, method === 'POST' ? { body: {} } : {});
      expect({ url, status: response.status, body: response.body }).toEqual({ url, status: 401, body: 'Unauthorized' });
    }
  });
});

describe('localOnly types', () => {
  it('refuses writes with 409 and a clear error', async () => {
    const typeId = await createType({ name: 'Local', syncType: 'localOnly' });
    const response = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: tokens.alice, body: { title: 'x' } });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'DATA_LOCAL_ONLY_TYPE', error: expect.stringContaining('localOnly') });
  });
});

describe('applications', () => {
  it('share the documents shape', async () => {
    const path = `/api/projects/${projectId}/applications`;
    const created = await platform.call('POST', path, { token: tokens.owner, body: { title: { en: 'Shop' }, routes: [{ path: '/' }] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: { en: 'Shop' }, revision: 0 });
    const patched = await platform.call('PATCH', `${path}/${created.body.id}`, { token: tokens.owner, body: { modifier: { $set: { 'title.de': 'Laden' } }, baseRevision: 0 } });
    expect(patched.body.title).toEqual({ en: 'Shop', de: 'Laden' });
    const badTitle = await platform.call('POST', path, { token: tokens.owner, body: { title: 'plain string' } });
    expect(badTitle.status).toBe(400);
  });
});
