import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
const tokens: Record<'owner' | 'bob' | 'stranger', string> = { owner: '', bob: '', stranger: '' };

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await platform.signIn(name);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'bob' }] });
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { id: 'notes', name: 'Notes' } })).status).toBe(201);
});

afterAll(async () => {
  await platform?.close();
});

const dataPath = () => `/api/projects/${projectId}/types/notes/data`;
const changes = (id: string, query = '', token: string = tokens.owner) => platform.call('GET', `${dataPath()}/${id}/changes${query}`, { token });

/** A document at revision `revisions` (the creation, then one PATCH per revision), readable by `read` when given. */
async function documentAt(revisions: number, access?: unknown): Promise<string> {
  const created = await platform.call('POST', dataPath(), { token: tokens.owner, body: { title: 'r0', ...(access ? { access } : {}) } });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  for (let revision = 1; revision <= revisions; revision += 1) {
    const patched = await platform.call('PATCH', `${dataPath()}/${id}`, { token: tokens.owner, body: { baseRevision: revision - 1, modifier: { $set: { title: `r${revision}` } } } });
    expect(patched.status).toBe(200);
  }
  return id;
}

describe('GET .../data/{id}/changes', () => {
  it('pages the history newest first; the pages together are the whole history of includeChanges', async () => {
    const id = await documentAt(6);
    const first = await changes(id, '?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.revision).toBe(6);
    expect(first.body.items.map((item: { revision: number }) => item.revision)).toEqual([6, 5, 4]);
    expect(first.body.nextFromRevision).toBe(3);
    const second = await changes(id, '?limit=3&fromRevision=3');
    expect(second.body.items.map((item: { revision: number }) => item.revision)).toEqual([3, 2, 1]);
    const last = await changes(id, `?limit=3&fromRevision=${second.body.nextFromRevision as number}`);
    expect(last.body.items.map((item: { revision: number }) => item.revision)).toEqual([0]);
    expect(last.body).not.toHaveProperty('nextFromRevision');

    const whole = await platform.call('GET', `${dataPath()}/${id}?includeChanges=true`, { token: tokens.owner });
    const expected = (whole.body.changes as Array<{ baseRevision: number }>).map((change) => ({ revision: change.baseRevision + 1, ...change })).reverse();
    expect([...first.body.items, ...second.body.items, ...last.body.items]).toEqual(expected);
    expect(last.body.items[0]).toMatchObject({ userId: 'owner', baseRevision: -1, modifier: { $set: { title: 'r0' } } });
  });

  it('reads one revision with limit=1, and 100 changes by default', async () => {
    const id = await documentAt(120);
    const one = await changes(id, '?fromRevision=57&limit=1');
    expect(one.body.items).toEqual([expect.objectContaining({ revision: 57, baseRevision: 56, modifier: { $set: { title: 'r57' } } })]);
    expect(one.body.nextFromRevision).toBe(56);
    const byDefault = await changes(id);
    expect(byDefault.body.items).toHaveLength(100);
    expect([byDefault.body.items[0].revision, byDefault.body.items[99].revision, byDefault.body.nextFromRevision]).toEqual([120, 21, 20]);
  });

  it('answers 404 as reading the document does: unknown ids, documents the caller may not read, unknown types and strangers', async () => {
    const hidden = await documentAt(1, { read: { userIds: ['owner'] } });
    expect((await changes(hidden)).status).toBe(200);
    for (const answer of [await changes(hidden, '', tokens.bob), await changes('no-such-document')]) {
      expect([answer.status, answer.body.code]).toEqual([404, 'DATA_ENTITY_NOT_FOUND']);
    }
    const read = await platform.call('GET', `${dataPath()}/${hidden}`, { token: tokens.bob });
    expect([read.status, read.body.code]).toEqual([404, 'DATA_ENTITY_NOT_FOUND']);
    expect((await platform.call('GET', `/api/projects/${projectId}/types/no-such-type/data/${hidden}/changes`, { token: tokens.owner })).status).toBe(404);
    expect((await changes(hidden, '', tokens.stranger)).body.code).toBe('PROJECT_NOT_FOUND');
    expect((await platform.call('GET', `${dataPath()}/${hidden}/changes`)).status).toBe(401);
  });

  it("follows a revocation of the document's read access at once, and keeps a deleted document's history for its readers", async () => {
    const id = await documentAt(0);
    expect((await changes(id, '', tokens.bob)).status).toBe(200);
    const revoked = await platform.call('PATCH', `${dataPath()}/${id}`, { token: tokens.owner, body: { baseRevision: 0, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } });
    expect(revoked.status).toBe(200);
    expect((await changes(id, '', tokens.bob)).status).toBe(404);
    expect((await platform.call('DELETE', `${dataPath()}/${id}`, { token: tokens.owner })).status).toBe(200);
    const deleted = await changes(id);
    expect(deleted.body.items.map((item: { revision: number }) => item.revision)).toEqual([2, 1, 0]);
  });

  it('refuses a bad limit or fromRevision with 400 naming it', async () => {
    const id = await documentAt(2);
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?limit=two', 'limit'],
      ['?fromRevision=-1', 'fromRevision'],
      ['?fromRevision=1.5', 'fromRevision'],
      // Number() would read these as 1, 2 and 0.
      ['?fromRevision=0x1', 'fromRevision'],
      ['?limit=%202', 'limit'],
      ['?fromRevision=', 'fromRevision'],
    ] as const) {
      const answer = await changes(id, query);
      expect({ query, status: answer.status, named: String(answer.body.error).includes(field) }).toEqual({ query, status: 400, named: true });
    }
    const ahead = await changes(id, '?fromRevision=3');
    expect([ahead.status, ahead.body.code, ahead.body.details]).toEqual([400, 'DATA_REVISION_AHEAD', { field: 'fromRevision', revision: 2 }]);
    expect((await changes(id, '?limit=1000')).body.items).toHaveLength(3);
  });
});

describe('GET .../data/{id}/revisions/{revision}', () => {
  it("answers the document's fields at any revision, replayed from its history", async () => {
    const id = await documentAt(4);
    const patched = await platform.call('PATCH', `${dataPath()}/${id}`, { token: tokens.owner, body: { baseRevision: 4, modifier: { $set: { count: 1 }, $unset: { title: '' } } } });
    expect(patched.status).toBe(200);
    const at = (revision: number | string, token: string = tokens.owner) => platform.call('GET', `${dataPath()}/${id}/revisions/${revision}`, { token });
    expect((await at(0)).body).toEqual({ revision: 0, state: { title: 'r0' } });
    expect((await at(3)).body).toEqual({ revision: 3, state: { title: 'r3' } });
    expect((await at(5)).body).toEqual({ revision: 5, state: { count: 1 } });
    const ahead = await at(6);
    expect([ahead.status, ahead.body.code, ahead.body.details]).toEqual([400, 'DATA_REVISION_AHEAD', { field: 'revision', revision: 5 }]);
    for (const bad of ['-1', 'one', '0b1', '%200']) {
      const answer = await at(bad);
      expect({ bad, status: answer.status, named: String(answer.body.error).includes('revision') }).toEqual({ bad, status: 400, named: true });
    }
  });

  it('answers 404 as reading the document does', async () => {
    const hidden = await documentAt(1, { read: { userIds: ['owner'] } });
    expect((await platform.call('GET', `${dataPath()}/${hidden}/revisions/1`, { token: tokens.owner })).body.state).toMatchObject({ title: 'r1' });
    for (const answer of [await platform.call('GET', `${dataPath()}/${hidden}/revisions/0`, { token: tokens.bob }), await platform.call('GET', `${dataPath()}/no-such-document/revisions/0`, { token: tokens.owner })]) {
      expect([answer.status, answer.body.code]).toEqual([404, 'DATA_ENTITY_NOT_FOUND']);
    }
  });
});
