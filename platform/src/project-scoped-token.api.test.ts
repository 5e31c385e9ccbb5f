import { beforeAll, describe, expect, it } from 'vitest';
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
