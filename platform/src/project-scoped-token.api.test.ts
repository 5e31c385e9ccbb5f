import { beforeAll, describe, expect, it, vi } from 'vitest';
import { httpCaller, openSyncStream, registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/** An access token made for one project, through the gateway: that project as its user has it, nothing else. */
const { platform, call } = allInOneForTests('project-scoped-token-');
const as = succeeding(call);
let owner: { token: string; userId: string };
let inScope: string;
let outOfScope: string;

beforeAll(async () => {
  owner = await registerAccount(call, 'scoper');
  inScope = (await as(owner, 'POST', '/api/projects', { name: 'In scope' })).id;
  outOfScope = (await as(owner, 'POST', '/api/projects', { name: 'Out of scope' })).id;
  for (const projectId of [inScope, outOfScope]) {
    await as(owner, 'POST', `/api/projects/${projectId}/types`, { id: 'notes', name: 'Notes' });
    await as(owner, 'POST', `/api/projects/${projectId}/types/notes/data`, { id: 'n1', title: `in ${projectId}` });
  }
});

describe('an access token made for some projects', () => {
  it('reads and writes its projects, realtime included, and is refused every other project and account route', async () => {
    const made = await as(owner, 'POST', '/api/me/tokens', { name: 'ci', projects: [inScope] });
    expect(made).toMatchObject({ name: 'ci', access: 'read-write', projects: [inScope] });
    const scoped = { token: made.token as string };

    expect((await as(scoped, 'GET', `/api/projects/${inScope}/types/notes/data/n1`)).title).toBe(`in ${inScope}`);
    expect((await call('POST', `/api/projects/${inScope}/types/notes/data`, scoped.token, { id: 'n2', title: 'by ci' })).status).toBe(201);
    expect((await as(scoped, 'GET', `/api/projects/${inScope}/audit-trail?limit=5`)).items.length).toBeGreaterThan(0);
    expect((await as(scoped, 'GET', `/api/projects/${inScope}`)).name).toBe('In scope');
    expect((await as(scoped, 'GET', '/api/me')).id).toBe(owner.userId);
    // The projects its user opened lately: only those of the token, the others unknown to it.
    for (const projectId of [inScope, outOfScope]) await as(owner, 'PUT', '/api/me/last-project', { projectId });
    expect(Object.keys((await as(owner, 'GET', '/api/me')).recentProjects).sort()).toEqual([inScope, outOfScope].sort());
    expect(Object.keys((await as(scoped, 'GET', '/api/me')).recentProjects)).toEqual([inScope]);
    // What needs no account, the API description among it.
    expect((await call('GET', '/api/openapi.json', scoped.token)).status).toBe(200);
    const stream = await openSyncStream(platform().url, scoped.token, inScope);
    expect(stream).toBeDefined();
    stream?.close();

    for (const [method, path, body] of [
      ['GET', `/api/projects/${outOfScope}/types/notes/data/n1`, undefined],
      ['POST', `/api/projects/${outOfScope}/types/notes/data`, { id: 'n3', title: 'not here' }],
      ['GET', `/api/projects/${outOfScope}`, undefined],
      ['GET', `/api/realtime/projects/${outOfScope}/sync`, undefined],
      ['GET', '/api/projects', undefined],
      ['POST', '/api/projects', { name: 'More' }],
      ['GET', '/api/projects/deleted', undefined],
      ['GET', '/api/tenants', undefined],
      ['GET', `/api/users/${owner.userId}`, undefined],
      ['PUT', '/api/me/profile', { displayName: 'Renamed' }],
      ['GET', '/api/me/tokens', undefined],
    ] as const) {
      const refused = await call(method, path, scoped.token, body);
      expect(refused, `${method} ${path}`).toMatchObject({ status: 403, body: { code: 'GATEWAY_TOKEN_PROJECT_SCOPED' } });
    }
    expect((await call('GET', `/api/projects/${outOfScope}/types/notes/data/n3`, owner.token)).status).toBe(404);

    // The stream's own token (no Authorization on the stream, as browsers send it): the services' check holds it to its projects too.
    const issued = await httpCaller(() => platform().url)('GET', '/api/realtime/token', scoped.token);
    const foreign = await fetch(`${platform().url}/api/realtime/projects/${outOfScope}/sync?token=${encodeURIComponent(issued.body.token)}`);
    expect(foreign.status).toBe(404);
    await foreign.body?.cancel();
  });

  it('is made only for projects its user belongs to, each once, and listed with them; read-only and scoped together', async () => {
    const stranger = await registerAccount(call, 'stranger');
    const theirs = (await as(stranger, 'POST', '/api/projects', { name: 'Theirs' })).id;
    for (const [projects, field] of [
      [[theirs], 'projects.0'],
      [[inScope, 'no-such-project'], 'projects.1'],
    ] as const) {
      const refused = await call('POST', '/api/me/tokens', owner.token, { name: 'bad', projects });
      expect(refused, JSON.stringify(projects)).toMatchObject({ status: 400, body: { code: 'IDENTITY_TOKEN_PROJECT_UNKNOWN', details: { field } } });
    }
    for (const projects of [[], [inScope, inScope], Array.from({ length: 21 }, (_, index) => `p${index}`)]) {
      expect((await call('POST', '/api/me/tokens', owner.token, { name: 'bad', projects })).status, JSON.stringify(projects)).toBe(400);
    }
    expect((await as(owner, 'GET', '/api/me/tokens')).tokens.map((token: { name: string }) => token.name)).not.toContain('bad');

    const reader = await as(owner, 'POST', '/api/me/tokens', { name: 'report', access: 'read', projects: [inScope, outOfScope] });
    expect((await call('GET', `/api/projects/${outOfScope}/types/notes/data/n1`, reader.token)).status).toBe(200);
    expect((await call('POST', `/api/projects/${outOfScope}/types/notes/data`, reader.token, { id: 'n4', title: 'x' })).body.code).toBe('GATEWAY_TOKEN_READ_ONLY');
    const listed = (await as(owner, 'GET', '/api/me/tokens')).tokens.find((token: { name: string }) => token.name === 'report');
    expect(listed).toMatchObject({ access: 'read', projects: [inScope, outOfScope] });
  });
});

describe('changing an access token', () => {
  const readNote = (token: string, projectId: string) => call('GET', `/api/projects/${projectId}/types/notes/data/n1`, token);

  it('narrows its projects from its next request, and closes its open stream of a project it no longer reaches', async () => {
    const made = await as(owner, 'POST', '/api/me/tokens', { name: 'sync both', projects: [inScope, outOfScope] });
    const kept = await openSyncStream(platform().url, made.token, inScope);
    const dropped = await openSyncStream(platform().url, made.token, outOfScope);
    expect(kept && dropped).toBeDefined();

    const amended = await as(owner, 'PATCH', `/api/me/tokens/${made.id}`, { projects: [inScope] });
    expect(amended).toMatchObject({ id: made.id, name: 'sync both', access: 'read-write', projects: [inScope], expiresAt: made.expiresAt, current: false });
    expect((await readNote(made.token, outOfScope)).body.code).toBe('GATEWAY_TOKEN_PROJECT_SCOPED');
    expect((await readNote(made.token, inScope)).status).toBe(200);
    await vi.waitFor(() => expect(dropped!.ended()).toBe(true), { timeout: 5_000 });
    expect(kept!.ended()).toBe(false);
    kept!.close();
  });

  it('renames it, makes it read-only and back, and lets it reach every project again, keeping its secret and expiry', async () => {
    const made = await as(owner, 'POST', '/api/me/tokens', { name: 'export', projects: [inScope] });
    expect(await as(owner, 'PATCH', `/api/me/tokens/${made.id}`, { name: 'nightly export', access: 'read' })).toMatchObject({ name: 'nightly export', access: 'read', projects: [inScope] });
    expect((await call('POST', `/api/projects/${inScope}/types/notes/data`, made.token, { title: 'x' })).body.code).toBe('GATEWAY_TOKEN_READ_ONLY');

    const widened = await as(owner, 'PATCH', `/api/me/tokens/${made.id}`, { access: 'read-write', projects: null });
    expect(widened).toMatchObject({ name: 'nightly export', access: 'read-write', expiresAt: made.expiresAt });
    expect(widened).not.toHaveProperty('projects');
    expect((await readNote(made.token, outOfScope)).status).toBe(200);
    expect((await call('POST', `/api/projects/${outOfScope}/types/notes/data`, made.token, { title: 'by export' })).status).toBe(201);
    const listed = (await as(owner, 'GET', '/api/me/tokens')).tokens.find((token: { id: string }) => token.id === made.id);
    expect(listed).toMatchObject({ name: 'nightly export', access: 'read-write', createdAt: made.createdAt, expiresAt: made.expiresAt });
    expect(listed).not.toHaveProperty('projects');
  });

  it('refuses bad changes, changing nothing: an unknown project, an empty or misspelt body, a token changing tokens, a token not yours', async () => {
    const made = await as(owner, 'POST', '/api/me/tokens', { name: 'guarded', access: 'read', projects: [inScope] });
    const before = (await as(owner, 'GET', '/api/me/tokens')).tokens.find((token: { id: string }) => token.id === made.id);
    const stranger = await registerAccount(call, 'token-stranger');
    const theirs = (await as(stranger, 'POST', '/api/projects', { name: 'Not yours' })).id;

    expect(await call('PATCH', `/api/me/tokens/${made.id}`, owner.token, { projects: [inScope, theirs] })).toMatchObject({ status: 400, body: { code: 'IDENTITY_TOKEN_PROJECT_UNKNOWN', details: { field: 'projects.1' } } });
    for (const body of [{}, { name: '' }, { access: 'admin' }, { projects: [] }, { project: [inScope] }, { expiresInDays: 365 }]) {
      expect((await call('PATCH', `/api/me/tokens/${made.id}`, owner.token, body)).status, JSON.stringify(body)).toBe(400);
    }
    // A token could otherwise widen itself or another token.
    const unscoped = await as(owner, 'POST', '/api/me/tokens', { name: 'program' });
    expect(await call('PATCH', `/api/me/tokens/${made.id}`, unscoped.token, { access: 'read-write' })).toMatchObject({ status: 403, body: { code: 'IDENTITY_TOKEN_NEEDS_SIGN_IN' } });
    expect(await call('PATCH', `/api/me/tokens/${made.id}`, stranger.token, { name: 'mine now' })).toMatchObject({ status: 404, body: { code: 'IDENTITY_TOKEN_NOT_FOUND' } });
    expect(await call('PATCH', '/api/me/tokens/no-such-token', owner.token, { name: 'x' })).toMatchObject({ status: 404, body: { code: 'IDENTITY_TOKEN_NOT_FOUND' } });

    expect((await as(owner, 'GET', '/api/me/tokens')).tokens.find((token: { id: string }) => token.id === made.id)).toEqual(before);
    expect((await call('POST', `/api/projects/${inScope}/types/notes/data`, made.token, { title: 'x' })).body.code).toBe('GATEWAY_TOKEN_READ_ONLY');
  });
});
