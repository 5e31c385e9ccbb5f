import { beforeAll, describe, expect, it } from 'vitest';
import { openSyncStream, rawCall, registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/** A read-only personal access token through the gateway: it reads everything its user may, and changes nothing. */
const { platform, call } = allInOneForTests('read-only-token-');
const as = succeeding(call);
let owner: { token: string; userId: string };
let projectId: string;

beforeAll(async () => {
  owner = await registerAccount(call, 'reader');
  projectId = (await as(owner, 'POST', '/api/projects', { name: 'Read only' })).id;
  await as(owner, 'POST', `/api/projects/${projectId}/types`, { id: 'notes', name: 'Notes' });
  await as(owner, 'POST', `/api/projects/${projectId}/types/notes/data`, { id: 'n1', title: 'readable' });
});

describe('a read-only access token', () => {
  it('reads documents, pages, the audit trail and the realtime stream, and is refused every change with 403', async () => {
    const made = await as(owner, 'POST', '/api/me/tokens', { name: 'dashboard', access: 'read' });
    expect(made).toMatchObject({ name: 'dashboard', access: 'read' });
    const reader = { token: made.token as string };
    const data = `/api/projects/${projectId}/types/notes/data`;

    expect((await as(reader, 'GET', `${data}/n1`)).title).toBe('readable');
    expect((await as(reader, 'GET', `${data}?updatedAt=0`)).items.map((item: { id: string }) => item.id)).toEqual(['n1']);
    expect((await as(reader, 'POST', `${data}/readable`, { ids: ['n1'] })).readable).toEqual(['n1']);
    expect((await as(reader, 'GET', `/api/projects/${projectId}/audit-trail?limit=5`)).items.length).toBeGreaterThan(0);
    const stream = await openSyncStream(platform().url, reader.token, projectId);
    expect(stream).toBeDefined();
    stream?.close();

    for (const [method, path, body] of [
      ['POST', data, { id: 'n2', title: 'written' }],
      ['PATCH', `${data}/n1`, { modifier: { $set: { title: 'changed' } }, baseRevision: 0 }],
      ['DELETE', `${data}/n1`, undefined],
      ['POST', `/api/projects/${projectId}/types`, { id: 'more', name: 'More' }],
      ['PUT', '/api/me/profile', { displayName: 'Renamed' }],
      ['DELETE', `/api/projects/${projectId}`, undefined],
    ] as const) {
      const refused = await call(method, path, reader.token, body);
      expect(refused, `${method} ${path}`).toMatchObject({ status: 403, body: { code: 'GATEWAY_TOKEN_READ_ONLY' } });
    }
    const after = await as(owner, 'GET', `${data}/n1`);
    expect(after).toMatchObject({ title: 'readable', revision: 0 });
    expect((await call('GET', `${data}/n2`, owner.token)).status).toBe(404);
    expect((await as(owner, 'GET', '/api/projects')).items.map((project: { id: string }) => project.id)).toContain(projectId);

    const listed = (await as(owner, 'GET', '/api/me/tokens')).tokens;
    expect(listed.map((token: { name: string; access: string }) => [token.name, token.access])).toContainEqual(['dashboard', 'read']);
    // A token made for reading and writing writes as before.
    const writer = { token: (await as(owner, 'POST', '/api/me/tokens', { name: 'importer' })).token as string };
    expect((await call('POST', data, writer.token, { id: 'n3', title: 'written' })).status).toBe(201);
  });

  it('is refused a change however its path is spelled: the gateway decides on the path the routers match', async () => {
    const reader = (await as(owner, 'POST', '/api/me/tokens', { name: 'spelled', access: 'read' })).token as string;
    // A `#` ends the routed path, so each of these is a create (of a type, of a project) for the routers.
    for (const [target, body] of [
      [`/api/projects/${projectId}/types/#/data/readable`, { id: 'hashed', name: 'Hashed' }],
      ['/api/projects/#/types/x/data/readable', { name: 'Hashed project' }],
      [`/api/projects/${projectId}/types/`, { id: 'slashed', name: 'Slashed' }],
      [`/api/projects/${projectId}/%74ypes`, { id: 'escaped', name: 'Escaped' }],
    ] as const) {
      const refused = await rawCall(platform().url, 'POST', target, reader, body);
      expect({ target, status: refused.status, code: refused.body.code }).toEqual({ target, status: 403, code: 'GATEWAY_TOKEN_READ_ONLY' });
    }
    const types = (await as(owner, 'GET', `/api/projects/${projectId}/types`)).items.map((type: { id: string }) => type.id);
    expect(types.filter((id: string) => ['hashed', 'slashed', 'escaped'].includes(id))).toEqual([]);
    expect((await as(owner, 'GET', '/api/projects')).items.map((project: { name: string }) => project.name)).not.toContain('Hashed project');
    // A reading POST still reads, spelled with a last slash too.
    expect((await rawCall(platform().url, 'POST', `/api/projects/${projectId}/types/notes/data/readable/`, reader, { ids: ['n1'] })).body.readable).toEqual(['n1']);
  });
});
