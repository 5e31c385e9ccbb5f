import { PROJECT_MEMBERS_COLLECTION, projectMemberId } from '@platform/contracts';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

let platform: TestGateway;
let projectId: string;
const tokens: Record<'owner' | 'alice' | 'bob' | 'carol' | 'stranger', string> = { owner: '', alice: '', bob: '', carol: '', stranger: '' };

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  for (const name of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[name] = await platform.signIn(name);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['secret'] }, { userId: 'bob' }, { userId: 'carol' }] });
});

afterAll(async () => {
  await platform?.close();
});

const dataPath = (typeId: string) => `/api/projects/${projectId}/types/${typeId}/data`;
const readable = (typeId: string, body: unknown, token: string = tokens.bob) => platform.call('POST', `${dataPath(typeId)}/readable`, { token, body });

/** A fresh type with an open document, one only `secret` holders read, and one deleted open document. */
async function fixture() {
  const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: tokens.owner, body: { name: 'Readable' } });
  const typeId = type.body.id as string;
  const create = async (body: Record<string, unknown>) => (await platform.call('POST', dataPath(typeId), { token: tokens.owner, body })).body.id as string;
  const open = await create({ title: 'open' });
  const secret = await create({ title: 'secret', access: { read: { permission: `${projectId}::secret` } } });
  const deleted = await create({ title: 'deleted' });
  expect((await platform.call('DELETE', `${dataPath(typeId)}/${deleted}`, { token: tokens.owner })).status).toBe(200);
  return { typeId, open, secret, deleted };
}

describe('POST .../data/readable', () => {
  it('answers which of the sent ids the caller may read, by the entity read rule, and nothing about others', async () => {
    const { typeId, open, secret, deleted } = await fixture();
    const ids = [open, secret, deleted, 'never-existed'];
    expect((await readable(typeId, { ids }, tokens.alice)).body.readable.sort()).toEqual([open, secret, deleted].sort());
    const bob = await readable(typeId, { ids });
    expect(bob.status).toBe(200);
    expect(bob.body.readable.sort()).toEqual([open, deleted].sort());
    expect((await readable(typeId, { ids: [open] })).body).toEqual({ readable: [open] });
    expect((await readable(typeId, { ids: [] })).body).toEqual({ readable: [] });
  });

  it('follows a revocation of the entity access at once', async () => {
    const { typeId, open } = await fixture();
    const revoked = await platform.call('PATCH', `${dataPath(typeId)}/${open}`, { token: tokens.owner, body: { baseRevision: 0, modifier: { $set: { access: { read: { userIds: ['owner'] } } } } } });
    expect(revoked.status).toBe(200);
    expect((await readable(typeId, { ids: [open] })).body).toEqual({ readable: [] });
    expect((await readable(typeId, { ids: [open] }, tokens.owner)).body).toEqual({ readable: [open] });
  });

  it('needs a session, project membership and a readable type', async () => {
    const { typeId, open } = await fixture();
    expect((await platform.call('POST', `${dataPath(typeId)}/readable`, { body: { ids: [open] } })).status).toBe(401);
    const stranger = await readable(typeId, { ids: [open] }, tokens.stranger);
    expect([stranger.status, stranger.body.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
    const missing = await readable('no-such-type', { ids: [open] });
    expect([missing.status, missing.body.code]).toEqual([404, 'DATA_TYPE_NOT_FOUND']);
    // A type whose read rule excludes the caller answers as one that does not exist, whatever its documents allow.
    const guarded = await platform.call('PATCH', `/api/projects/${projectId}/types/${typeId}`, { token: tokens.owner, body: { baseRevision: 0, modifier: { $set: { access: { read: { permission: `${projectId}::secret` } } } } } });
    expect(guarded.status).toBe(200);
    const excluded = await readable(typeId, { ids: [open] });
    expect([excluded.status, JSON.stringify(excluded.body)]).toEqual([404, JSON.stringify(missing.body).replace('no-such-type', typeId)]);
    expect((await readable(typeId, { ids: [open] }, tokens.alice)).body).toEqual({ readable: [open] });
    expect((await platform.call('PATCH', `/api/projects/${projectId}/types/${typeId}`, { token: tokens.owner, body: { baseRevision: 1, modifier: { $unset: { access: '' } } } })).status).toBe(200);

    expect((await readable(typeId, { ids: [open] }, tokens.carol)).body).toEqual({ readable: [open] });
    await platform.context.store.collection(PROJECT_MEMBERS_COLLECTION).deleteMany({ id: projectMemberId(projectId, 'carol') });
    await platform.context.accessChanges.announce({ projectId });
    const removed = await readable(typeId, { ids: [open] }, tokens.carol);
    expect([removed.status, removed.body.code]).toEqual([404, 'PROJECT_NOT_FOUND']);
  });

  it.each([
    ['ids missing', {}, 'ids'],
    ['ids not an array', { ids: 'abc' }, 'ids'],
    ['an id of the wrong shape', { ids: ['ok', 'not an id!'] }, 'ids.1'],
    ['more ids than one request takes', { ids: Array.from({ length: 1_001 }, (_, index) => `id${index}`) }, 'ids'],
  ])('refuses %s with a 400 naming the field', async (_case, body, field) => {
    const { typeId } = await fixture();
    const refused = await readable(typeId, body);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(field);
  });
});
