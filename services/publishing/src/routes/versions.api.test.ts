import { dataService } from '@platform/data';
import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishingService } from '../app';
import { ABANDONED_AFTER_MS, versionsCollection } from '../stores/versions';

let platform: TestGateway;
let projectId: string;
let owner: string;
let editor: string;
let reader: string;
let outsider: string;
/** Added to the real time, so a test can jump past ABANDONED_AFTER_MS without sleeping. */
let clockOffset = 0;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService, publishingService], clock: () => Date.now() + clockOffset });
  owner = await platform.signIn('owner');
  editor = await platform.signIn('editor');
  reader = await platform.signIn('reader');
  outsider = await platform.signIn('outsider');
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'editor', permissions: ['editors'] }, { userId: 'reader', permissions: ['readers'] }] });
});

afterAll(async () => {
  await platform?.close();
});

/** An application created through the data service, as clients do. */
async function application(fields: Record<string, unknown> = {}): Promise<string> {
  const created = await platform.call('POST', `/api/projects/${projectId}/applications`, {
    token: owner,
    body: { title: { en: 'Shop' }, routes: [{ path: '/', widget: 'home' }], serverConfiguration: { apiKey: 'secret-key' }, ...fields },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

function publish(appId: string, token = owner) {
  return platform.call('POST', `/api/projects/${projectId}/applications/${appId}/publish`, { token });
}

function versions(appId: string, token = owner, query = '') {
  return platform.call('GET', `/api/projects/${projectId}/applications/${appId}/versions${query}`, { token });
}

async function applicationDoc(appId: string) {
  return (await platform.call('GET', `/api/projects/${projectId}/applications/${appId}?includeChanges=true`, { token: owner })).body;
}

describe('publish', () => {
  it('numbers from 1, snapshots title, routes and serverConfiguration, and patches the application with history', async () => {
    const appId = await application();
    const first = await publish(appId);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: `${appId}:1`,
      applicationId: appId,
      versionNumber: 1,
      publishedBy: 'owner',
      title: { en: 'Shop' },
      routes: [{ path: '/', widget: 'home' }],
      serverConfiguration: { apiKey: 'secret-key' },
      createdAt: expect.any(Number),
    });
    const app = await applicationDoc(appId);
    expect(app).toMatchObject({ publishedVersionNumber: 1, publishedVersionId: `${appId}:1`, publishedAt: first.body.createdAt, revision: 1 });
    expect(app.changes[1]).toMatchObject({ userId: 'owner', baseRevision: 0, modifier: { $set: { publishedVersionNumber: 1, publishedVersionId: `${appId}:1` } } });

    await platform.call('PATCH', `/api/projects/${projectId}/applications/${appId}`, { token: owner, body: { baseRevision: 1, modifier: { $set: { title: { en: 'Shop 2' } } } } });
    const second = await publish(appId);
    expect(second.body).toMatchObject({ id: `${appId}:2`, versionNumber: 2, title: { en: 'Shop 2' } });
    // Versions are immutable: the first still holds the old title.
    const one = await platform.call('GET', `/api/projects/${projectId}/applications/${appId}/versions/${appId}:1`, { token: owner });
    expect(one.body).toMatchObject({ versionNumber: 1, title: { en: 'Shop' }, serverConfiguration: { apiKey: 'secret-key' } });
  });

  it('of 20 concurrent publishes, exactly one wins each number: the losers get 409 and leave no row', async () => {
    const appId = await application();
    const answers = await Promise.all(Array.from({ length: 20 }, () => publish(appId)));
    const won = answers.filter((a) => a.status === 201);
    const lost = answers.filter((a) => a.status !== 201);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const answer of lost) expect(answer).toMatchObject({ status: 409, body: { code: 'PUBLISHING_CONCURRENT_PUBLISH' } });
    const numbers = won.map((a) => a.body.versionNumber as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: won.length }, (_, i) => i + 1));
    expect(await platform.context.store.collection(versionsCollection(projectId)).count({ applicationId: appId })).toBe(won.length);
    expect((await applicationDoc(appId)).publishedVersionNumber).toBe(won.length);
  });

  it('20 publishers that retry on 409 end with versions 1 to 20, contiguous, no duplicates', async () => {
    const appId = await application();
    const publishUntilWon = async (): Promise<number> => {
      for (;;) {
        const answer = await publish(appId);
        if (answer.status === 201) return answer.body.versionNumber;
        expect(answer.status).toBe(409);
      }
    };
    const numbers = await Promise.all(Array.from({ length: 20 }, publishUntilWon));
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const listed = await versions(appId);
    expect(listed.body.map((v: { versionNumber: number }) => v.versionNumber)).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(new Set(listed.body.map((v: { id: string }) => v.id)).size).toBe(20);
  });

  it('a row left by a crashed publish is never visible, and the next publish of its number replaces it once abandoned', async () => {
    const appId = await application();
    await publish(appId);
    const orphan = { id: `${appId}:2`, applicationId: appId, versionNumber: 2, publishedBy: 'owner', title: { en: 'crashed' }, routes: [], serverConfiguration: {}, createdAt: Date.now() + clockOffset, _attempt: 'crashed' };
    await platform.context.store.collection(versionsCollection(projectId)).insertOne(orphan);

    expect((await versions(appId)).body.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([1]);
    expect((await platform.call('GET', `/api/projects/${projectId}/applications/${appId}/versions/${appId}:2`, { token: owner })).status).toBe(404);
    // Still fresh: it may belong to a publish in flight, so the number is not taken over.
    expect((await publish(appId)).status).toBe(409);

    clockOffset += ABANDONED_AFTER_MS + 1_000;
    const next = await publish(appId);
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ id: `${appId}:2`, versionNumber: 2, title: { en: 'Shop' } });
    expect((await versions(appId)).body.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([2, 1]);
  });

  it.each([
    ['PATCH publishedVersionNumber', 'PATCH', { baseRevision: 1, modifier: { $set: { publishedVersionNumber: 0 } } }],
    ['PATCH unset publishedVersionId', 'PATCH', { baseRevision: 1, modifier: { $unset: { publishedVersionId: '' } } }],
    ['POST with publishedAt', 'POST', { title: { en: 'x' }, publishedAt: 1 }],
  ])('clients cannot write the publish fields through the data service: %s answers 400, nothing changes', async (_label, method, body) => {
    const appId = await application();
    await publish(appId);
    const path = method === 'PATCH' ? `/api/projects/${projectId}/applications/${appId}` : `/api/projects/${projectId}/applications`;
    const refused = await platform.call(method, path, { token: owner, body });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('DATA_INVALID_MODIFIER');
    expect(await applicationDoc(appId)).toMatchObject({ revision: 1, publishedVersionNumber: 1, publishedVersionId: `${appId}:1` });
  });

  it('publishes for a client that sends its JSON content type with no body, as many HTTP clients do on every POST', async () => {
    const appId = await application();
    const response = await fetch(`${platform.url}/api/projects/${projectId}/applications/${appId}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ applicationId: appId, versionNumber: 1 });
  });

  it('answers 404 for a missing or deleted application', async () => {
    expect((await publish('no-such-app')).body.code).toBe('PUBLISHING_APPLICATION_NOT_FOUND');
    const appId = await application();
    await platform.call('DELETE', `/api/projects/${projectId}/applications/${appId}`, { token: owner });
    expect(await publish(appId)).toMatchObject({ status: 404, body: { code: 'PUBLISHING_APPLICATION_NOT_FOUND' } });
  });
});

describe('versions list', () => {
  it('is newest first, leaves out routes and serverConfiguration, and pages with before and limit', async () => {
    const appId = await application();
    for (let i = 0; i < 3; i += 1) await publish(appId);
    const listed = await versions(appId);
    expect(listed.status).toBe(200);
    expect(listed.body.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([3, 2, 1]);
    expect(listed.body[0]).toEqual({ id: `${appId}:3`, applicationId: appId, versionNumber: 3, publishedBy: 'owner', title: { en: 'Shop' }, createdAt: expect.any(Number) });
    expect(JSON.stringify(listed.body)).not.toContain('serverConfiguration');
    expect((await versions(appId, owner, '?before=3&limit=1')).body.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([2]);
    expect((await versions(appId, owner, '?limit=0')).status).toBe(400);
    // Number() would read these as 2, 0 and 1; only decimal text is a number (kit numberText).
    for (const query of ['?before=0x2', '?limit=', '?limit=%201']) expect((await versions(appId, owner, query)).status).toBe(400);
  });

  it('is empty before the first publish', async () => {
    expect((await versions(await application())).body).toEqual([]);
  });
});

describe('permissions', () => {
  const restricted = { read: { permission: 'PROJECT::readers' }, update: { permission: 'PROJECT::editors' } };

  async function restrictedApp(): Promise<string> {
    const access = JSON.parse(JSON.stringify(restricted).replaceAll('PROJECT', projectId));
    return application({ access });
  }

  it.each([
    { who: 'no session', token: () => undefined, publish: 401, list: 401 },
    { who: 'a non-member', token: () => outsider, publish: 404, list: 404 },
    { who: 'a member with read but not update', token: () => reader, publish: 403, list: 200 },
    { who: 'a member with update but not read', token: () => editor, publish: 404, list: 404 },
    { who: 'the project owner', token: () => owner, publish: 201, list: 200 },
  ])('$who: publish $publish, versions $list', async (row) => {
    const appId = await restrictedApp();
    const published = await platform.call('POST', `/api/projects/${projectId}/applications/${appId}/publish`, { token: row.token() });
    expect(published.status).toBe(row.publish);
    if (row.publish === 403) expect(published.body.code).toBe('PUBLISHING_FORBIDDEN');
    if (row.publish === 404 && row.list === 404 && row.token() !== outsider) expect(published.body.code).toBe('PUBLISHING_APPLICATION_NOT_FOUND');
    const listed = await platform.call('GET', `/api/projects/${projectId}/applications/${appId}/versions`, { token: row.token() });
    expect(listed.status).toBe(row.list);
    const single = await platform.call('GET', `/api/projects/${projectId}/applications/${appId}/versions/${appId}:1`, { token: row.token() });
    if (row.list === 404) expect(single.status).toBe(404);
    if (row.list === 200 && row.publish === 201) expect(single.status).toBe(200);
    if (row.publish !== 201) expect(await platform.context.store.collection(versionsCollection(projectId)).count({ applicationId: appId })).toBe(0);
  });

  it('a member who may not read the application cannot publish it: 404 like an unknown one, no snapshot, nothing changed', async () => {
    // Read limited to the owner and no update rule: update alone would let every member through.
    const appId = await application({ access: { read: { userIds: ['owner'] } } });
    const before = await applicationDoc(appId);

    const published = await publish(appId, reader);
    const unknown = await publish('no-such-app', reader);
    expect(published).toMatchObject({ status: 404, body: { code: 'PUBLISHING_APPLICATION_NOT_FOUND' } });
    expect(published.body).toEqual(unknown.body);
    expect(JSON.stringify(published.body)).not.toContain('secret-key');

    expect(await platform.context.store.collection(versionsCollection(projectId)).count({ applicationId: appId })).toBe(0);
    const after = await applicationDoc(appId);
    expect(after.revision).toBe(before.revision);
    expect(after.publishedVersionNumber).toBeUndefined();
    expect(after.changes).toHaveLength(before.changes.length);
    // The owner still publishes it, as version 1.
    expect(await publish(appId)).toMatchObject({ status: 201, body: { versionNumber: 1, publishedBy: 'owner' } });
  });
});
