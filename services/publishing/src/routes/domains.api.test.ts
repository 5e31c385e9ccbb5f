import { randomBytes } from 'node:crypto';
import { DOMAIN_CHANGES_FILTER, type DomainChange } from '@platform/contracts';
import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway, type TestResponse } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPublishingService } from '../app';
import { FakeDns } from '../testing/fake-dns';
import { longestHostname } from '../testing/longest-hostname';
import { versionsCollection } from '../stores/versions';

let platform: TestGateway;
let projectId: string;
let otherProjectId: string;
let owner: string;
let member: string;
let outsider: string;
/** Every answer of the public route in this file, to check none carries server configuration. */
const publicAnswers: TestResponse[] = [];
/** Where domain owners publish their verification records. */
const dns = new FakeDns();

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService, createPublishingService({ resolveTxt: dns.resolveTxt })] });
  owner = await platform.signIn('owner');
  member = await platform.signIn('member');
  outsider = await platform.signIn('outsider');
  // Changing domains needs update on the project: the owner has it, the plain member not.
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'member' }], access: { update: { userIds: ['owner'] } } });
  otherProjectId = await platform.seedProject({ ownerId: 'outsider' });
});

afterAll(async () => {
  await platform?.close();
});

const hostname = () => `app-${randomBytes(4).toString('hex')}.example.com`;

async function application(project = projectId, token = owner): Promise<string> {
  const created = await platform.call('POST', `/api/projects/${project}/applications`, {
    token,
    body: { title: { en: 'Shop' }, routes: [{ path: '/' }], serverConfiguration: { key: 'server-secret' } },
  });
  return created.body.id;
}

async function publish(appId: string): Promise<string> {
  const published = await platform.call('POST', `/api/projects/${projectId}/applications/${appId}/publish`, { token: owner });
  expect(published.status).toBe(201);
  return published.body.id;
}

function createDomain(body: Record<string, unknown>, options: { token?: string; project?: string } = {}) {
  return platform.call('POST', `/api/projects/${options.project ?? projectId}/domains`, { token: options.token ?? owner, body });
}

function assign(domainId: string, body: Record<string, unknown>, token = owner) {
  return platform.call('POST', `/api/projects/${projectId}/domains/${domainId}/assign`, { token, body });
}

function getDomain(domainId: string) {
  return platform.call('GET', `/api/projects/${projectId}/domains/${domainId}`, { token: owner });
}

/** Publishes the domain's verification record in DNS, then asks for the check (as the owner unless a caller is given). */
async function verify(domainId: string, caller: { token: string | undefined } = { token: owner }): Promise<TestResponse> {
  const { verification } = (await getDomain(domainId)).body as { verification?: { record: { name: string; value: string } } };
  if (verification) dns.publish(verification.record.name, verification.record.value);
  return platform.call('POST', `/api/projects/${projectId}/domains/${domainId}/verify`, { token: caller.token });
}

/** A domain that resolves: created, then verified. */
async function verifiedDomain(body: Record<string, unknown>): Promise<string> {
  const created = await createDomain(body);
  expect(created.status).toBe(201);
  expect((await verify(created.body.id)).body.status).toBe('verified');
  return created.body.id;
}

async function resolve(name: string, token?: string): Promise<TestResponse> {
  const answer = await platform.call('GET', `/api/public/domains/${name}`, { token });
  publicAnswers.push(answer);
  return answer;
}

describe('OpenAPI', () => {
  it('documents every publishing route from its schemas', async () => {
    const document = (await platform.call('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/projects/{projectId}/applications/{appId}/publish',
        '/api/projects/{projectId}/applications/{appId}/versions',
        '/api/projects/{projectId}/applications/{appId}/versions/{versionId}',
        '/api/projects/{projectId}/domains',
        '/api/projects/{projectId}/domains/{domainId}',
        '/api/projects/{projectId}/domains/{domainId}/assign',
        '/api/projects/{projectId}/domains/{domainId}/verify',
        '/api/public/domains/{hostname}',
      ]),
    );
    expect(Object.keys(document.paths['/api/projects/{projectId}/domains/{domainId}']!).sort()).toEqual(['delete', 'get', 'patch']);
  });
});

describe('domains CRUD', () => {
  it('creates with a normalised hostname, lists, reads, renames and removes (freeing the hostname)', async () => {
    const name = hostname();
    const created = await createDomain({ hostname: `${name.toUpperCase()}.` });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      projectId,
      hostname: name,
      status: 'pending',
      verification: { method: 'dns-txt', record: { type: 'TXT', name: `_platform-verify.${name}`, value: expect.stringMatching(/^platform-verify=[0-9a-f]{32}$/) }, expiresAt: created.body.createdAt + 72 * 3_600_000 },
      revision: 0,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    const id = created.body.id as string;

    const listed = await platform.call('GET', `/api/projects/${projectId}/domains`, { token: member });
    expect(listed.status).toBe(200);
    expect(listed.body.map((d: { id: string }) => d.id)).toContain(id);
    expect((await getDomain(id)).body).toEqual(created.body);

    const renamed = hostname();
    const patched = await platform.call('PATCH', `/api/projects/${projectId}/domains/${id}`, { token: owner, body: { hostname: renamed } });
    expect(patched.body).toMatchObject({ hostname: renamed, revision: 1 });

    const removed = await platform.call('DELETE', `/api/projects/${projectId}/domains/${id}`, { token: owner });
    expect(removed.body).toMatchObject({ id, hostname: renamed });
    expect((await getDomain(id)).status).toBe(404);
    expect((await createDomain({ hostname: renamed }, { token: outsider, project: otherProjectId })).status).toBe(201);
  });

  it.each([
    ['no dot', 'localhost'],
    ['an IP address', '10.0.0.1'],
    ['an underscore', 'my_app.example.com'],
    ['a path', 'app.example.com/x'],
    ['a non-ASCII label', 'bücher.example.com'],
    ['a missing hostname', undefined],
  ])('refuses a hostname with %s: 400 naming body.hostname, nothing created', async (_label, value) => {
    const before = (await platform.call('GET', `/api/projects/${projectId}/domains`, { token: owner })).body.length;
    const refused = await createDomain({ hostname: value });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error).toContain('body.hostname');
    expect((await platform.call('GET', `/api/projects/${projectId}/domains`, { token: owner })).body.length).toBe(before);
  });

  it('gives a hostname to one domain platform-wide: 409 in another project, in the same one, in any case, and on rename', async () => {
    const name = hostname();
    expect((await createDomain({ hostname: name })).status).toBe(201);
    const elsewhere = await createDomain({ hostname: name }, { token: outsider, project: otherProjectId });
    expect(elsewhere).toMatchObject({ status: 409, body: { code: 'PUBLISHING_HOSTNAME_TAKEN' } });
    expect((await createDomain({ hostname: name.toUpperCase() })).status).toBe(409);

    const second = await createDomain({ hostname: hostname() });
    const rename = await platform.call('PATCH', `/api/projects/${projectId}/domains/${second.body.id}`, { token: owner, body: { hostname: name } });
    expect(rename.status).toBe(409);
    expect((await getDomain(second.body.id)).body).toEqual(second.body);
  });

  it.each([
    { who: 'no session', token: () => undefined, read: 401, write: 401 },
    { who: 'a non-member', token: () => outsider, read: 404, write: 404 },
    { who: 'a member without update on the project', token: () => member, read: 200, write: 403 },
    { who: 'the owner', token: () => owner, read: 200, write: 201 },
  ])('$who: read $read, write (create, assign, verify, remove) $write', async (row) => {
    const listed = await platform.call('GET', `/api/projects/${projectId}/domains`, { token: row.token() });
    expect(listed.status).toBe(row.read);
    const created = await platform.call('POST', `/api/projects/${projectId}/domains`, { token: row.token(), body: { hostname: hostname() } });
    expect(created.status).toBe(row.write);
    const existing = (await createDomain({ hostname: hostname() })).body.id as string;
    const assigned = await platform.call('POST', `/api/projects/${projectId}/domains/${existing}/assign`, { token: row.token(), body: { targetType: 'application', targetId: await application() } });
    expect(assigned.status).toBe(row.write === 201 ? 200 : row.write);
    expect((await verify(existing, { token: row.token() })).status).toBe(row.write === 201 ? 200 : row.write);
    expect((await getDomain(existing)).body.status).toBe(row.write === 201 ? 'verified' : 'pending');
    const removed = await platform.call('DELETE', `/api/projects/${projectId}/domains/${existing}`, { token: row.token() });
    expect(removed.status).toBe(row.write === 201 ? 200 : row.write);
  });

  it('refuses a key the create does not take, naming it, instead of ignoring it, and creates nothing', async () => {
    const wanted = hostname();
    for (const body of [{ id: 'chosen', hostname: wanted }, { hostName: wanted }]) {
      const refused = await createDomain(body);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(refused.body.details.issues.map((issue: { message: string }) => issue.message).join('\n')).toContain(`"${Object.keys(body)[0]}"`);
    }
    expect((await createDomain({ hostname: wanted })).status).toBe(201);
  });

  it('hides a domain of another project', async () => {
    const foreign = (await createDomain({ hostname: hostname() }, { token: outsider, project: otherProjectId })).body.id;
    expect((await getDomain(foreign)).status).toBe(404);
    expect((await assign(foreign, { targetType: 'application', targetId: await application() })).body.code).toBe('PUBLISHING_DOMAIN_NOT_FOUND');
    expect((await platform.call('POST', `/api/projects/${projectId}/domains/${foreign}/verify`, { token: owner })).body.code).toBe('PUBLISHING_DOMAIN_NOT_FOUND');
  });
});

describe('assign: the Domain pin table', () => {
  async function pinnedDomain() {
    const appId = await application();
    const v1 = await publish(appId);
    await publish(appId);
    const domain = (await createDomain({ hostname: hostname(), targetType: 'application', targetId: appId, targetVersionId: v1 })).body;
    expect(domain.targetVersionId).toBe(v1);
    return { appId, v1, domainId: domain.id as string };
  }

  it('truthy targetVersionId pins that version', async () => {
    const { appId, domainId } = await pinnedDomain();
    const answer = await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: `${appId}:2` });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ targetType: 'application', targetId: appId, targetVersionId: `${appId}:2`, revision: 1 });
  });

  it.each([null, '', false, 0])('the key present with %j unpins: the field is removed', async (value) => {
    const { appId, domainId } = await pinnedDomain();
    const answer = await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: value });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('targetVersionId');
    const stored = await platform.context.store.collection('project-domains').findById(domainId);
    expect(stored).not.toHaveProperty('targetVersionId');
  });

  it('refuses a misspelt targetVersionId by name instead of leaving the pin as it was', async () => {
    const { appId, domainId } = await pinnedDomain();
    const before = (await getDomain(domainId)).body;
    const answer = await assign(domainId, { targetType: 'application', targetId: appId, targetVersionID: `${appId}:2` });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'Invalid body: Unrecognized key: "targetVersionID"', code: 'VALIDATION_FAILED', details: { issues: [{ field: 'body', message: 'Unrecognized key: "targetVersionID"' }] } });
    expect((await getDomain(domainId)).body).toEqual(before);
  });

  it('the key absent leaves a pin, and leaves an unpinned domain unpinned', async () => {
    const { appId, v1, domainId } = await pinnedDomain();
    // The same application with the pin left as it is: nothing changes, so no revision either.
    expect((await assign(domainId, { targetType: 'application', targetId: appId })).body).toMatchObject({ targetVersionId: v1, revision: 0 });
    await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: null });
    const still = await assign(domainId, { targetType: 'application', targetId: appId });
    expect(still.status).toBe(200);
    expect(still.body).not.toHaveProperty('targetVersionId');
  });

  it.each([
    { label: 'an unknown application', field: 'targetId', body: (_a: string, _v: string, _other: string) => ({ targetId: 'no-such-app' }) },
    { label: 'an application of another project', field: 'targetId', body: (_a: string, _v: string, other: string) => ({ targetId: other }) },
    { label: 'a version of another application', field: 'targetVersionId', body: (a: string) => ({ targetId: a, targetVersionId: 'some-other-app:1' }) },
    { label: 'a version not published yet', field: 'targetVersionId', body: (a: string) => ({ targetId: a, targetVersionId: `${a}:9` }) },
    { label: 'a new application while pinned to the old one (key absent)', field: 'targetVersionId', body: (_a: string, _v: string, _o: string, fresh: string) => ({ targetId: fresh }) },
  ])('refuses $label with 400 naming body.$field, changing nothing', async (row) => {
    const { appId, v1, domainId } = await pinnedDomain();
    const other = await application(otherProjectId, outsider);
    const fresh = await application();
    await publish(fresh);
    const before = (await getDomain(domainId)).body;
    const answer = await assign(domainId, { targetType: 'application', ...row.body(appId, v1, other, fresh) });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'PUBLISHING_INVALID_TARGET', details: { field: row.field } });
    expect(answer.body.error).toContain(`body.${row.field}`);
    expect((await getDomain(domainId)).body).toEqual(before);
  });

  it('refuses a deleted application and a malformed body with 400', async () => {
    const { appId, domainId } = await pinnedDomain();
    await platform.call('DELETE', `/api/projects/${projectId}/applications/${appId}`, { token: owner });
    expect((await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: null })).status).toBe(400);
    expect((await assign(domainId, { targetType: 'page', targetId: appId })).body.error).toContain('body.targetType');
    expect((await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: true })).body.error).toContain('body.targetVersionId');
  });
});

describe('changes that change nothing', () => {
  it('the same target, pin or hostname again answers the domain as it is: same revision and updatedAt, no audit item', async () => {
    const changes: DomainChange[] = [];
    const subscription = await platform.context.bus.subscribe<DomainChange>({
      durable: `test-no-op-${randomBytes(4).toString('hex')}`,
      filter: DOMAIN_CHANGES_FILTER,
      handler: async (message) => {
        changes.push(message.data);
      },
    });
    try {
      const appId = await application();
      const v1 = await publish(appId);
      const name = hostname();
      const id = (await createDomain({ hostname: name, targetType: 'application', targetId: appId })).body.id as string;
      const target = { targetType: 'application', targetId: appId };
      const pinned = (await assign(id, { ...target, targetVersionId: v1 })).body;
      expect(pinned).toMatchObject({ targetVersionId: v1, revision: 1 });
      // Time passes, so a write would show in updatedAt too.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const again: Array<[string, () => Promise<TestResponse>]> = [
        ['the same pin', () => assign(id, { ...target, targetVersionId: v1 })],
        ['the same application, pin key absent', () => assign(id, target)],
        ['the same hostname', () => platform.call('PATCH', `/api/projects/${projectId}/domains/${id}`, { token: owner, body: { hostname: name } })],
        ['the same hostname spelt otherwise', () => platform.call('PATCH', `/api/projects/${projectId}/domains/${id}`, { token: owner, body: { hostname: `${name.toUpperCase()}.` } })],
      ];
      for (const [label, request] of again) expect(await request(), label).toMatchObject({ status: 200, body: pinned });
      expect((await getDomain(id)).body).toEqual(pinned);

      const unpinned = (await assign(id, { ...target, targetVersionId: null })).body;
      expect(unpinned.revision).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const value of [null, '']) expect(await assign(id, { ...target, targetVersionId: value }), `unpin with ${JSON.stringify(value)} again`).toMatchObject({ status: 200, body: unpinned });
      expect((await getDomain(id)).body).toEqual(unpinned);

      // A real change afterwards: its item follows the last one, one item per revision and no gap.
      const renamed = (await platform.call('PATCH', `/api/projects/${projectId}/domains/${id}`, { token: owner, body: { hostname: hostname() } })).body;
      expect(renamed.revision).toBe(3);
      await vi.waitFor(() => expect(changes.filter((change) => change.domainId === id).map((change) => change.revision)).toContain(3));
      expect(changes.filter((change) => change.domainId === id).map((change) => [change.revision, change.change])).toEqual([
        [0, 'created'],
        [1, 'assigned'],
        [2, 'assigned'],
        [3, 'renamed'],
      ]);
    } finally {
      await subscription.stop();
    }
  });
});

describe('public resolution', () => {
  it('serves the latest, then the pinned version, then the latest again after unpin, with no session', async () => {
    const appId = await application();
    const name = hostname();
    const domainId = await verifiedDomain({ hostname: name, targetType: 'application', targetId: appId });
    expect(await resolve(name)).toMatchObject({ status: 404, body: { code: 'PUBLISHING_NOTHING_PUBLISHED' } });

    const v1 = await publish(appId);
    const first = await resolve(name);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      hostname: name,
      projectId,
      applicationId: appId,
      pinned: false,
      version: { id: v1, applicationId: appId, versionNumber: 1, title: { en: 'Shop' }, routes: [{ path: '/' }], createdAt: expect.any(Number) },
    });

    const v2 = await publish(appId);
    expect((await resolve(name)).body.version.id).toBe(v2);

    await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: v1 });
    expect((await resolve(name)).body).toMatchObject({ pinned: true, version: { id: v1 } });
    await publish(appId);
    expect((await resolve(name)).body.version.id).toBe(v1);

    await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: null });
    expect((await resolve(name)).body).toMatchObject({ pinned: false, version: { id: `${appId}:3`, versionNumber: 3 } });
    expect((await resolve(name.toUpperCase(), owner)).body.version.versionNumber).toBe(3);
  });

  it('resolves a hostname as long as DNS allows (253 characters), in any case', async () => {
    const name = longestHostname(`long-${randomBytes(4).toString('hex')}`);
    expect(name).toHaveLength(253);
    const appId = await application();
    await publish(appId);
    await verifiedDomain({ hostname: name, targetType: 'application', targetId: appId });
    expect(await resolve(name)).toMatchObject({ status: 200, body: { hostname: name, applicationId: appId } });
    expect((await resolve(name.toUpperCase())).status).toBe(200);
  });

  it('answers 404 for unknown hostnames, domains without target, and after a rename or removal; 400 for a malformed one', async () => {
    expect(await resolve(hostname())).toMatchObject({ status: 404, body: { code: 'PUBLISHING_DOMAIN_NOT_FOUND' } });
    const name = hostname();
    const domain = { id: await verifiedDomain({ hostname: name }) };
    expect((await resolve(name)).body.code).toBe('PUBLISHING_NOTHING_PUBLISHED');

    const appId = await application();
    await publish(appId);
    await assign(domain.id, { targetType: 'application', targetId: appId });
    expect((await resolve(name)).status).toBe(200);
    const renamed = hostname();
    await platform.call('PATCH', `/api/projects/${projectId}/domains/${domain.id}`, { token: owner, body: { hostname: renamed } });
    expect((await resolve(name)).status).toBe(404);
    expect((await verify(domain.id)).status).toBe(200);
    expect((await resolve(renamed)).status).toBe(200);
    await platform.call('DELETE', `/api/projects/${projectId}/domains/${domain.id}`, { token: owner });
    expect((await resolve(renamed)).status).toBe(404);
    expect((await resolve('not_a_hostname')).status).toBe(400);
  });

  it('stops serving an application deleted through the data service (its event clears the cache)', async () => {
    const appId = await application();
    await publish(appId);
    const name = hostname();
    await verifiedDomain({ hostname: name, targetType: 'application', targetId: appId });
    expect((await resolve(name)).status).toBe(200);
    await platform.call('DELETE', `/api/projects/${projectId}/applications/${appId}`, { token: owner });
    // Well inside the cache TTL (1 s): only the application event can have cleared the entry.
    await expect.poll(async () => (await resolve(name)).status, { timeout: 500, interval: 20 }).toBe(404);
  });

  it('never serves nor pins a version row the application did not take (an unfinished publish)', async () => {
    const appId = await application();
    await publish(appId);
    const name = hostname();
    const domainId = await verifiedDomain({ hostname: name, targetType: 'application', targetId: appId });
    const unfinished = { id: `${appId}:2`, applicationId: appId, versionNumber: 2, publishedBy: 'owner', title: {}, routes: [], serverConfiguration: { key: 'server-secret' }, createdAt: Date.now(), _attempt: 'x' };
    await platform.context.store.collection(versionsCollection(projectId)).insertOne(unfinished);
    expect((await resolve(name)).body.version.versionNumber).toBe(1);
    const pin = await assign(domainId, { targetType: 'application', targetId: appId, targetVersionId: unfinished.id });
    expect(pin).toMatchObject({ status: 400, body: { details: { field: 'targetVersionId' } } });
  });

  it('no public answer in this file carried serverConfiguration or its values', () => {
    expect(publicAnswers.length).toBeGreaterThan(15);
    for (const answer of publicAnswers) {
      expect(JSON.stringify(answer.body)).not.toContain('serverConfiguration');
      expect(JSON.stringify(answer.body)).not.toContain('server-secret');
      expect(JSON.stringify(answer.body)).not.toContain('publishedBy');
    }
  });
});
