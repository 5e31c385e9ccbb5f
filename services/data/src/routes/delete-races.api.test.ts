import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { interleavedReads, temporaryEmbeddedStore, type InterleavedReads, type TemporaryStore } from '@platform/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

/**
 * A delete takes no base revision: a write that lands between its read of the entity and its own
 * write is decided on again, as the entity now is. Until 2026-12-07 it answered 409 with the
 * entity as that write left it, to a caller the write may have shut out.
 */
let temporary: TemporaryStore;
let platform: TestGateway;
let owner: string;
let member: string;
let path: string;
let afterNextRead: InterleavedReads['afterNextRead'];

beforeAll(async () => {
  temporary = await temporaryEmbeddedStore('delete-races');
  const interleaved = interleavedReads(temporary.store, (_collection, id) => id.startsWith('race-'));
  afterNextRead = interleaved.afterNextRead;
  platform = await startTestGateway({ services: [dataService], store: interleaved.store });
  owner = await platform.signIn('owner');
  member = await platform.signIn('member');
  const projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'member' }] });
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id: 'tasks', name: 'Tasks' } })).status).toBe(201);
  path = `/api/projects/${projectId}/types/tasks/data`;
});

afterAll(async () => {
  await platform?.close();
  await temporary?.dispose();
});

async function openTask(id: string): Promise<void> {
  expect((await platform.call('POST', path, { token: owner, body: { id, title: 'open to members' } })).status).toBe(201);
}

/** The owner's write, made while the member's delete has read the entity and not yet written. */
function whileDeleting(modifier: Record<string, unknown>, id: string): void {
  afterNextRead(async () => {
    expect((await platform.call('PATCH', `${path}/${id}`, { token: owner, body: { baseRevision: 0, modifier } })).status).toBe(200);
  });
}

const SHUT_OUT = { $set: { secret: 'written meanwhile', access: { read: { userIds: ['owner'] }, delete: { userIds: ['owner'] } } } };

describe('a write between a delete’s read and its own write', () => {
  it('that takes the caller’s read access: 404, nothing of the entity in the answer, nothing deleted', async () => {
    await openTask('race-read');
    whileDeleting(SHUT_OUT, 'race-read');
    const answer = await platform.call('DELETE', `${path}/race-read`, { token: member });
    expect([answer.status, answer.body.code]).toEqual([404, 'DATA_ENTITY_NOT_FOUND']);
    expect(JSON.stringify(answer.body)).not.toContain('written meanwhile');
    const stored = await platform.call('GET', `${path}/race-read`, { token: owner });
    expect([stored.body.revision, stored.body.deletedAt, stored.body.secret]).toEqual([1, undefined, 'written meanwhile']);
  });

  it('that takes only the caller’s delete access: 403', async () => {
    await openTask('race-delete');
    whileDeleting({ $set: { access: { delete: { userIds: ['owner'] } } } }, 'race-delete');
    const answer = await platform.call('DELETE', `${path}/race-delete`, { token: member });
    expect([answer.status, answer.body.code]).toEqual([403, 'DATA_FORBIDDEN']);
    expect((await platform.call('GET', `${path}/race-delete`, { token: owner })).body.deletedAt).toBeUndefined();
  });

  it('that leaves the caller’s access: the delete goes through on the new revision', async () => {
    await openTask('race-title');
    whileDeleting({ $set: { title: 'renamed meanwhile' } }, 'race-title');
    const answer = await platform.call('DELETE', `${path}/race-title`, { token: member });
    expect([answer.status, answer.body.revision, answer.body.deletedAt]).toEqual([200, 2, expect.any(Number)]);
    const changes = (await platform.call('GET', `${path}/race-title?includeChanges=true`, { token: owner })).body.changes as Array<{ userId: string }>;
    expect(changes.map((change) => change.userId)).toEqual(['owner', 'owner', 'member']);
  });

  it('in a bulk request: the delete’s own result is the 404, the entity stays', async () => {
    await openTask('race-bulk');
    whileDeleting(SHUT_OUT, 'race-bulk');
    const answer = await platform.call('POST', `${path}/bulk`, { token: member, body: { operations: [{ op: 'delete', id: 'race-bulk' }] } });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([{ status: 404, body: expect.objectContaining({ code: 'DATA_ENTITY_NOT_FOUND' }) }]);
    expect(JSON.stringify(answer.body)).not.toContain('written meanwhile');
    expect((await platform.call('GET', `${path}/race-bulk`, { token: owner })).body.deletedAt).toBeUndefined();
  });
});
