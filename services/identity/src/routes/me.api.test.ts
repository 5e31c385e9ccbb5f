import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

let now = Date.UTC(2026, 10, 1);
let platform: IdentityTestPlatform;

beforeAll(async () => {
  platform = await startIdentityPlatform({ clock: () => now });
});
afterAll(async () => {
  await platform?.close();
});

const putProfile = (token: string | undefined, body: unknown) => platform.call('PUT', '/api/me/profile', { token, body });

describe('PUT /api/me/profile (spec rules 1-6)', () => {
  it('rule 1: 401 without a session', async () => {
    expect((await putProfile(undefined, { firstName: 'X' })).status).toBe(401);
  });

  it('rule 2: ignores keys other than firstName, lastName, displayName, email (including id)', async () => {
    const { token, user } = await platform.register('rule2@example.org');
    const response = await putProfile(token, { id: 'hijack', platformOwner: true, favouriteColour: 'blue', lastName: 'Lovelace' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: user.id, displayName: user.displayName, profileFields: { lastName: { value: 'Lovelace', privacy: 'projects' } } });
    expect((await platform.call('GET', '/api/me', { token })).body).toMatchObject({ id: user.id, platformOwner: false });
  });

  it('rule 3: a plain value gets privacy projects; { value, privacy } sets both; privacy defaults to projects', async () => {
    const { token } = await platform.register('rule3@example.org');
    const response = await putProfile(token, { firstName: 'Ada', lastName: { value: 'King', privacy: 'private' }, displayName: { value: 'Countess' } });
    expect(response.body.profileFields).toEqual({
      firstName: { value: 'Ada', privacy: 'projects' },
      lastName: { value: 'King', privacy: 'private' },
      displayName: { value: 'Countess', privacy: 'projects' },
    });
    expect(response.body.displayName).toBe('Countess');
    expect((await platform.call('GET', '/api/me', { token })).body.displayName).toBe('Countess');
  });

  it('rule 4: an object without a value key is itself the value', async () => {
    const { token } = await platform.register('rule4@example.org');
    const response = await putProfile(token, { firstName: { given: 'Ada', privacy: 'public' } });
    expect(response.body.profileFields.firstName).toEqual({ value: { given: 'Ada', privacy: 'public' }, privacy: 'projects' });
  });

  it('rule 5: email takes only { privacy }; the address cannot change; a missing record is created with projects', async () => {
    const { token } = await platform.register('rule5@example.org');
    const created = await putProfile(token, { email: 'changed@example.org' });
    expect(created.body.profileFields.email).toEqual({ privacy: 'projects' });
    const privacy = await putProfile(token, { email: { privacy: 'public', value: 'changed@example.org' } });
    expect(privacy.body.profileFields.email).toEqual({ privacy: 'public' });
    const kept = await putProfile(token, { email: 'again@example.org' });
    expect(kept.body.profileFields.email).toEqual({ privacy: 'public' });
    expect((await platform.call('GET', '/api/me', { token })).body.email).toBe('rule5@example.org');
  });

  it('rule 6: 404 when the user record does not exist', async () => {
    const orphan = await platform.signIn('no-such-user');
    expect((await putProfile(orphan, { firstName: 'Ghost' })).status).toBe(404);
  });

  it('refuses an unknown privacy level or an unstorable value with 400 and changes nothing', async () => {
    const { token } = await platform.register('bad-profile@example.org');
    await putProfile(token, { firstName: 'Kept' });
    for (const body of [{ firstName: { value: 'X', privacy: 'everyone' } }, { email: { privacy: 'secret' } }, { lastName: { $where: 'x' } }, { lastName: { 'a.b': 1 } }, { lastName: 'x'.repeat(20_000) }, ['not', 'an', 'object']]) {
      const response = await putProfile(token, body);
      expect(response.status).toBe(400);
    }
    expect((await platform.call('GET', '/api/me', { token })).body.profileFields).toEqual({ firstName: { value: 'Kept', privacy: 'projects' } });
  });

  it('caps displayName at 100 characters, as registration does, and changes nothing past it', async () => {
    const { token } = await platform.register('long-name@example.org', { displayName: 'Short' });
    for (const displayName of ['x'.repeat(101), { value: `  ${'y'.repeat(101)}  `, privacy: 'public' }]) {
      const response = await putProfile(token, { displayName, firstName: 'Not kept' });
      expect({ status: response.status, error: response.body.error }).toEqual({ status: 400, error: 'Invalid displayName: at most 100 characters' });
    }
    expect((await platform.call('GET', '/api/me', { token })).body).toMatchObject({ displayName: 'Short', profileFields: {} });
    expect((await putProfile(token, { displayName: 'z'.repeat(100) })).body.displayName).toBe('z'.repeat(100));
  });
});

describe('profile privacy towards other users', () => {
  it('shows public fields to everyone, projects fields to project peers, private fields to nobody else', async () => {
    const subject = await platform.register('subject@example.org', { displayName: 'Subject' });
    const peer = await platform.register('peer@example.org');
    const stranger = await platform.register('stranger@example.org');
    await putProfile(subject.token, { firstName: { value: 'Pub', privacy: 'public' }, lastName: 'Proj', displayName: { value: 'Hidden', privacy: 'private' }, email: { privacy: 'projects' } });
    const project = (await platform.call('POST', '/api/projects', { token: subject.token, body: { name: 'Shared' } })).body;
    await platform.addProjectMember(project.id, subject.token, peer);

    const asPeer = await platform.call('GET', `/api/users/${subject.user.id}`, { token: peer.token });
    expect(asPeer.body).toEqual({
      id: subject.user.id,
      profileFields: { firstName: { value: 'Pub', privacy: 'public' }, lastName: { value: 'Proj', privacy: 'projects' }, email: { value: 'subject@example.org', privacy: 'projects' } },
    });
    const asStranger = await platform.call('GET', `/api/users/${subject.user.id}`, { token: stranger.token });
    expect(asStranger.body).toEqual({ id: subject.user.id, profileFields: { firstName: { value: 'Pub', privacy: 'public' } } });
    const asSelf = await platform.call('GET', `/api/users/${subject.user.id}`, { token: subject.token });
    expect(Object.keys(asSelf.body.profileFields).sort()).toEqual(['displayName', 'email', 'firstName', 'lastName']);
    expect((await platform.call('GET', '/api/users/nobody', { token: peer.token })).status).toBe(404);
  });

  it('counts members of one tenant as peers (a team: its admins manage all its projects); members of another tenant stay strangers', async () => {
    const admin = await platform.register('tenant-admin@example.org', { displayName: 'Tess' });
    const colleague = await platform.register('tenant-colleague@example.org', { displayName: 'Cole' });
    const outsider = await platform.register('tenant-outsider@example.org', { displayName: 'Otto' });
    const tenant = (await platform.call('POST', '/api/tenants', { token: admin.token, body: { name: 'Team' } })).body;
    const other = (await platform.call('POST', '/api/tenants', { token: outsider.token, body: { name: 'Elsewhere' } })).body;
    expect((await platform.call('GET', `/api/users/${colleague.user.id}`, { token: admin.token })).body.displayName).toBeUndefined();
    await platform.addTenantMember(tenant.id, admin.token, colleague, 'member');
    await platform.addTenantMember(other.id, outsider.token, admin, 'member');

    // Display names default to `projects` privacy: shown to tenant colleagues both ways.
    expect((await platform.call('GET', `/api/users/${colleague.user.id}`, { token: admin.token })).body.displayName).toBe('Cole');
    expect((await platform.call('GET', `/api/users/${admin.user.id}`, { token: colleague.token })).body.displayName).toBe('Tess');
    // The colleague and the outsider have no tenant or project in common (the admin is in both tenants).
    expect((await platform.call('GET', `/api/users/${colleague.user.id}`, { token: outsider.token })).body.displayName).toBeUndefined();
    expect((await platform.call('GET', `/api/users/${outsider.user.id}`, { token: colleague.token })).body.displayName).toBeUndefined();
  });
});

describe('avatar', () => {
  it('answers the own avatar URL when set, else a deterministic initials SVG', async () => {
    const { token, user } = await platform.register('avatar@example.org', { displayName: 'Grace Hopper' });
    const viewer = await platform.register('viewer@example.org');
    const fallback = await platform.call('GET', `/api/users/${user.id}/avatar/url`, { token: viewer.token });
    expect(fallback.body).toEqual({ url: `/api/users/${user.id}/avatar.svg` });
    await putProfile(token, { displayName: { value: 'Grace Hopper', privacy: 'public' } });
    const svg = await platform.call('GET', fallback.body.url, { token: viewer.token });
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(svg.body).toContain('>GH</text>');
    expect((await platform.call('GET', fallback.body.url, { token: viewer.token })).body).toBe(svg.body);

    expect((await platform.call('PUT', '/api/me/avatar', { token, body: { url: 'https://cdn.example.org/grace.png' } })).status).toBe(200);
    expect((await platform.call('GET', `/api/users/${user.id}/avatar/url`, { token: viewer.token })).body).toEqual({ url: 'https://cdn.example.org/grace.png' });
    expect((await platform.call('PUT', '/api/me/avatar', { token, body: { url: 'javascript:alert(1)' } })).status).toBe(400);
    expect((await platform.call('PUT', '/api/me/avatar', { token, body: { url: null } })).body.avatarUrl).toBeUndefined();
    expect((await platform.call('GET', `/api/users/nobody/avatar/url`, { token })).status).toBe(404);
    expect((await platform.call('GET', `/api/users/${user.id}/avatar/url`)).status).toBe(401);
  });

  it('hides initials of a name the viewer may not see', async () => {
    const { user } = await platform.register('shy@example.org', { displayName: 'Shy Person' });
    const viewer = await platform.register('curious@example.org');
    expect((await platform.call('GET', `/api/users/${user.id}/avatar.svg`, { token: viewer.token })).body).toContain('>?</text>');
  });
});

describe('PUT /api/me/last-project', () => {
  async function projectsOf(token: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await platform.call('POST', '/api/projects', { token, body: { name: `P${i}` } })).body.id);
    return ids;
  }

  it('keeps a sorted snapshot capped at 50, evicting the oldest', async () => {
    const { token } = await platform.register('recent@example.org');
    const ids = await projectsOf(token, 52);
    for (const id of ids) {
      now += 1000;
      expect((await platform.call('PUT', '/api/me/last-project', { token, body: { projectId: id } })).status).toBe(200);
    }
    const recent = (await platform.call('GET', '/api/me', { token })).body.recentProjects as Record<string, number>;
    expect(Object.keys(recent)).toEqual(ids.slice(2).reverse());
    now += 1000;
    const reopened = await platform.call('PUT', '/api/me/last-project', { token, body: { projectId: ids[10] } });
    expect(Object.keys(reopened.body.recentProjects)[0]).toBe(ids[10]);
    expect(Object.keys(reopened.body.recentProjects)).toHaveLength(50);
  });

  it('answers 404 for a project the user is not a member of and 400 without projectId', async () => {
    const { token } = await platform.register('outsider@example.org');
    const other = await platform.register('insider@example.org');
    const [foreign] = await projectsOf(other.token, 1);
    expect((await platform.call('PUT', '/api/me/last-project', { token, body: { projectId: foreign } })).status).toBe(404);
    expect((await platform.call('PUT', '/api/me/last-project', { token, body: {} })).status).toBe(400);
    expect((await platform.call('GET', '/api/me', { token })).body.recentProjects).toEqual({});
  });
});
