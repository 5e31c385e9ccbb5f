import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openSyncStream, registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { populatedProject, succeeding } from './testing/populated-project';

/**
 * Deleting a project takes it out of every service at once: its routes answer 404 to everyone,
 * its realtime streams end and its domains stop resolving. A restore brings back all of it,
 * data included.
 */
// Each service reads its own variables from the process environment when the platform starts.
vi.stubEnv('PUBLISHING_DOMAIN_VERIFICATION', 'off');
const { platform, call } = allInOneForTests('project-deletion-');
let owner: { token: string; userId: string };
let member: { token: string; userId: string };
let outsider: { token: string; userId: string };

const as = succeeding(call);
const populated = (name: string, hostname: string) => populatedProject(call, { owner, member }, name, hostname);

/** What a member and its owner reach of the project, route by route. */
async function reachable(projectId: string): Promise<Record<string, number>> {
  const project = `/api/projects/${projectId}`;
  const paths = { project, members: `${project}/members`, types: `${project}/types`, document: `${project}/types/notes/data/kept`, pull: `${project}/types/notes/data?updatedAt=0`, audit: `${project}/audit-trail?limit=5`, domains: `${project}/domains`, actions: `${project}/actions` };
  const statuses: Record<string, number> = {};
  for (const [name, path] of Object.entries(paths)) {
    statuses[`owner ${name}`] = (await call('GET', path, owner.token)).status;
    statuses[`member ${name}`] = (await call('GET', path, member.token)).status;
  }
  return statuses;
}

/** A kiosk's check-in, which needs no session. */
const checkIn = (projectId: string) => call('POST', `/api/projects/${projectId}/visitors`, undefined, { collectionName: `tenant-${projectId}-guests`, data: { name: 'Bob' } });

const listed = async (who: { token: string }, path = '/api/projects') => (await as(who, 'GET', path)).items.map((project: { id: string }) => project.id);

beforeAll(async () => {
  owner = await registerAccount(call, 'owner');
  member = await registerAccount(call, 'member');
  outsider = await registerAccount(call, 'outsider');
});

describe('deleting a project', () => {
  it('answers 404 on every route for everyone, ends its streams and domains; a restore brings all of it back', async () => {
    const projectId = await populated('Doomed', 'doomed.example.com');
    const before = await reachable(projectId);
    expect(new Set(Object.values(before))).toEqual(new Set([200]));
    expect((await call('GET', '/api/public/domains/doomed.example.com')).status).toBe(200);
    const stream = await openSyncStream(platform().url, member.token, projectId);
    if (!stream) throw new Error('the member could not open its realtime stream');

    const deleted = await call('DELETE', `/api/projects/${projectId}`, owner.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: projectId, name: 'Doomed' });
    const day = 24 * 60 * 60 * 1000;
    expect(deleted.body.restorableUntil - deleted.body.deletedAt).toBe(30 * day);

    expect(new Set(Object.values(await reachable(projectId)))).toEqual(new Set([404]));
    expect((await checkIn(projectId)).status).toBe(404);
    expect(await listed(owner)).not.toContain(projectId);
    expect(await listed(member)).not.toContain(projectId);
    await vi.waitFor(() => expect(stream.ended()).toBe(true), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await call('GET', '/api/public/domains/doomed.example.com')).body).toMatchObject({ code: 'PUBLISHING_DOMAIN_NOT_FOUND' }), { timeout: 5_000 });
    expect((await call('DELETE', `/api/projects/${projectId}`, owner.token)).status).toBe(404);

    // Only those who may delete it see it among deleted projects, and only they restore it.
    expect(await listed(owner, '/api/projects/deleted')).toContain(projectId);
    expect(await listed(member, '/api/projects/deleted')).not.toContain(projectId);
    expect((await call('POST', `/api/projects/${projectId}/restore`, member.token)).status).toBe(404);
    expect((await call('POST', `/api/projects/${projectId}/restore`, outsider.token)).status).toBe(404);
    expect(await listed(owner)).not.toContain(projectId);

    const restored = await call('POST', `/api/projects/${projectId}/restore`, owner.token);
    expect(restored.status).toBe(200);
    expect(restored.body.deletedAt).toBeUndefined();
    expect(await reachable(projectId)).toEqual(before);
    expect((await checkIn(projectId)).status).toBe(201);
    expect((await as(member, 'GET', `/api/projects/${projectId}/types/notes/data/kept`)).title).toBe('written before');
    expect(await listed(member)).toContain(projectId);
    expect(await listed(owner, '/api/projects/deleted')).not.toContain(projectId);
    await vi.waitFor(async () => expect((await call('GET', '/api/public/domains/doomed.example.com')).status).toBe(200), { timeout: 5_000 });
    expect((await call('POST', `/api/projects/${projectId}/restore`, owner.token)).status).toBe(404);
  });

  it('is refused to a member without the delete permission (403) and to outsiders (404), and changes nothing', async () => {
    const projectId = await populated('Kept', 'kept.example.com');
    const memberTry = await call('DELETE', `/api/projects/${projectId}`, member.token);
    expect(memberTry).toMatchObject({ status: 403, body: { code: 'IDENTITY_FORBIDDEN' } });
    expect((await call('DELETE', `/api/projects/${projectId}`, outsider.token)).status).toBe(404);
    expect((await call('DELETE', `/api/projects/${projectId}`)).status).toBe(401);
    expect(new Set(Object.values(await reachable(projectId)))).toEqual(new Set([200]));
    expect((await call('GET', '/api/public/domains/kept.example.com')).status).toBe(200);
  });

  it("is open to a member the project's delete rule names", async () => {
    const projectId = (await as(owner, 'POST', '/api/projects', { name: 'Delegated', access: { delete: { permission: 'closers' } } })).id;
    const invitation = await as(owner, 'POST', `/api/projects/${projectId}/members`, { userId: member.userId, permissions: ['closers'] });
    await as(member, 'POST', `/api/me/invitations/${invitation.id}/accept`);
    expect((await call('DELETE', `/api/projects/${projectId}`, member.token)).status).toBe(200);
    expect(await listed(member, '/api/projects/deleted')).toContain(projectId);
    expect((await call('POST', `/api/projects/${projectId}/restore`, member.token)).status).toBe(200);
  });
});
