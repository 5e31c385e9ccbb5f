import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueRealtimeToken } from '@platform/gateway';
import { slowClient } from '@platform/gateway/testing';
import { createLogger, hashToken, signPrincipal } from '@platform/kit';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalTopology } from './compose/local-topology';
import { loadPlatformConfig } from './config';
import { startPlatform } from './host';
import { httpCaller, openSyncStream } from './testing/platform-http';

/**
 * The red-team findings of issue 32, each reproduced with the requests the review used, through
 * the front door of each shape (the all-in-one process, and the microservice processes behind
 * their gateway). Each finding's own service tests hold the details; this suite proves the fixes
 * hold where the services run apart, on MongoDB, NATS and Redis, as well.
 */

/** Short slow-client limits, so the timeout cases finish quickly; ordinary requests arrive well within them. */
const SLOW_CLIENT_ENVIRONMENT = { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' };

/** The constant development installations signed with before finding 4 was fixed, and the key their realtime tokens used. */
const FORMER_DEVELOPMENT_SECRET = 'development-only-principal-secret-change-me';
const FORMER_REALTIME_KEY = `${FORMER_DEVELOPMENT_SECRET}:realtime-token`;

interface Started {
  url: string;
  /** Every log line the platform's processes wrote so far. */
  logText(): string;
  close(): Promise<void>;
}

function securityReviewSuite(start: () => Promise<Started>): void {
  let platform: Started | undefined;
  const call = httpCaller(() => platform?.url ?? '');
  const users = {} as Record<'owner' | 'member' | 'leaver', { token: string; userId: string }>;
  let project: string;
  let projectId: string;

  async function asOwner(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await call(method, `${project}${path}`, users.owner.token, body);
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
    return answer.body;
  }

  const asMember = (method: string, path: string, body?: unknown) => call(method, `${project}${path}`, users.member.token, body);

  /** Sends `text` as a JSON body unchanged, for bodies JSON.stringify cannot produce. */
  async function sendRaw(method: string, path: string, text: string, token?: string) {
    const response = await fetch(`${platform?.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: text,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  beforeAll(async () => {
    platform = await start();
    for (const name of ['owner', 'member', 'leaver'] as const) {
      const registered = await call('POST', '/api/auth/register', undefined, { email: `${name}-${randomBytes(4).toString('hex')}@example.org`, password: `${name} password 1` });
      expect(registered.status).toBe(201);
      users[name] = { token: registered.body.token, userId: registered.body.user.id };
    }
    // A project as identity creates it: only the owner passes its update rule.
    projectId = (await call('POST', '/api/projects', users.owner.token, { name: 'Security review' })).body.id;
    project = `/api/projects/${projectId}`;
    for (const name of ['member', 'leaver'] as const) {
      const invitation = await asOwner('POST', '/members', { userId: users[name].userId, permissions: [] });
      expect((await call('POST', `/api/me/invitations/${invitation.id}/accept`, users[name].token)).status).toBe(200);
    }
  }, 180_000);

  afterAll(async () => {
    await platform?.close();
  });

  it("finding 1: a member can neither loosen a type's defaultAccess nor create a type carrying one", async () => {
    const defaultAccess = { read: { userIds: [users.owner.userId] } };
    await asOwner('POST', '/types', { id: 'private-notes', name: 'Private notes', defaultAccess });
    const loosened = await asMember('PATCH', '/types/private-notes', { modifier: { $unset: { defaultAccess: '' } }, baseRevision: 0 });
    expect(loosened.status).toBe(403);
    expect(loosened.body.code).toBe('DATA_FORBIDDEN');
    const created = await asMember('POST', '/types', { id: 'member-notes', name: 'Mine', defaultAccess: { read: { userIds: [users.member.userId] } } });
    expect(created.status).toBe(403);
    expect((await call('GET', `${project}/types/member-notes`, users.owner.token)).status).toBe(404);

    // Documents written afterwards still carry the type's defaultAccess: another member cannot read them.
    const written = await asMember('POST', '/types/private-notes/data', { id: 'note-1', title: 'for the owner' });
    expect(written.status).toBe(201);
    expect(written.body.access).toEqual(defaultAccess);
    expect((await call('GET', `${project}/types/private-notes/data/note-1`, users.leaver.token)).status).toBe(404);
  });

  it('finding 2: a member cannot delete a type; an owner deletes one softly and restores it with its documents', async () => {
    await asOwner('POST', '/types', { id: 'contracts', name: 'Contracts' });
    await asOwner('POST', '/types/contracts/data', { id: 'lease', title: 'Lease' });
    const byMember = await asMember('DELETE', '/types/contracts');
    expect(byMember.status).toBe(403);
    expect((await call('GET', `${project}/types/contracts/data/lease`, users.member.token)).body).toMatchObject({ title: 'Lease' });

    await asOwner('DELETE', '/types/contracts');
    expect((await call('GET', `${project}/types/contracts/data/lease`, users.owner.token)).status).toBe(404);
    const recreated = await call('POST', `${project}/types`, users.owner.token, { id: 'contracts', name: 'Contracts again' });
    expect(recreated.status).toBe(409);
    expect(recreated.body.code).toBe('DATA_TYPE_DELETED');
    expect((await asMember('POST', '/types/contracts/restore')).status).toBe(403);

    expect(await asOwner('POST', '/types/contracts/restore')).toMatchObject({ id: 'contracts', name: 'Contracts' });
    expect((await call('GET', `${project}/types/contracts/data/lease`, users.member.token)).body).toMatchObject({ id: 'lease', title: 'Lease', revision: 0 });
  });

  it('finding 5: a member cannot bind a type to the public visitors API through a CheckIn widget', async () => {
    await asOwner('POST', '/types', { id: 'guests', name: 'Guests' });
    const kiosk = { path: '/', widgetTree: { rootWidgetId: 'root', widgets: { root: { id: 'root', name: 'CheckIn', data: { visitorTypeId: 'guests' } } } } };
    const saved = await asMember('POST', '/applications', { id: 'member-kiosk', title: { en: 'Kiosk' }, routes: [kiosk] });
    expect(saved.status).toBe(403);
    expect(saved.body.code).toBe('DATA_FORBIDDEN');
    expect((await call('GET', `${project}/applications/member-kiosk`, users.owner.token)).status).toBe(404);
  });

  it("finding 10: a type's read rule guards its schema, the list and creating its documents", async () => {
    await asOwner('POST', '/types', {
      id: 'salaries',
      name: 'Salaries',
      schema: { fields: { amount: { type: 'number' } } },
      access: { read: { userIds: [users.owner.userId] } },
    });
    await asOwner('POST', '/types/salaries/data', { id: 'ada', amount: 100 });
    for (const [method, path, body] of [
      ['GET', '/types/salaries/schema'],
      ['GET', '/types/salaries/data'],
      ['POST', '/types/salaries/data', { amount: 1 }],
    ] as const) {
      const answer = await asMember(method, path, body);
      expect({ method, path, status: answer.status, code: answer.body.code }).toEqual({ method, path, status: 404, code: 'DATA_TYPE_NOT_FOUND' });
    }
    // The type record follows its own read rule as any entity does.
    expect((await asMember('GET', '/types/salaries')).status).toBe(404);
    expect((await asMember('GET', '/types')).text).not.toContain('"salaries"');
    expect((await asOwner('GET', '/types/salaries/data')).items.map((item: { id: string }) => item.id)).toEqual(['ada']);
  });

  it('finding 8: a body nested 6,000 levels deep answers 400, anonymously on the visitors routes and on a document PATCH', async () => {
    const deep = `${'['.repeat(6_000)}${']'.repeat(6_000)}`;
    const visitors = await sendRaw('POST', `${project}/visitors`, `{"collectionName":"tenant-${projectId}-guests","data":${deep}}`);
    expect(visitors.status).toBe(400);
    expect(visitors.body).toMatchObject({ code: 'JSON_TOO_DEEP', details: { issues: [{ field: 'body' }] } });

    await asOwner('POST', '/types', { id: 'notes', name: 'Notes' });
    await asOwner('POST', '/types/notes/data', { id: 'n1', title: 'kept' });
    const patched = await sendRaw('PATCH', `${project}/types/notes/data/n1`, `{"modifier":{"$set":{"title":${deep}}},"baseRevision":0}`, users.owner.token);
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('JSON_TOO_DEEP');
    expect(await asOwner('GET', '/types/notes/data/n1')).toMatchObject({ title: 'kept', revision: 0 });
  });

  it('finding 11: a number past a double answers 400 naming its field and stores nothing', async () => {
    await asOwner('POST', '/types', { id: 'prices', name: 'Prices' });
    const created = await sendRaw('POST', `${project}/types/prices/data`, '{"id":"huge","amount":1e309}', users.owner.token);
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'JSON_NUMBER_OUT_OF_RANGE', details: { issues: [{ field: 'body.amount' }] } });
    expect((await call('GET', `${project}/types/prices/data/huge`, users.owner.token)).status).toBe(404);
  });

  it('finding 11: the webhook guard refuses IPv4-compatible IPv6, and a webhook secret is shown only to project updaters', async () => {
    const refused = await call('POST', `${project}/actions`, users.owner.token, {
      title: 'Reach inside',
      blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url: 'http://[::127.0.0.1]/' } }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details.problems.map((problem: { field: string }) => problem.field)).toEqual(['blocks.0.configuration.url']);

    const hook = { id: 'hook', blockName: 'call-webhook', configuration: { url: 'https://hooks.example.org/in', secret: 'a-very-secret-signing-key' } };
    const action = await asOwner('POST', '/actions', { title: 'Open hook', blocks: [hook] });
    const seen = await asMember('GET', `/actions/${action.id}`);
    expect(seen.body.blocks[0].configuration).toEqual({ url: 'https://hooks.example.org/in', secret: '[redacted]' });
    expect((await asMember('GET', '/actions')).text).not.toContain('a-very-secret');
    expect((await asOwner('GET', `/actions/${action.id}`)).blocks[0].configuration.secret).toBe('a-very-secret-signing-key');
  });

  it('finding 4: realtime tokens signed with the former fixed development secret open no stream', async () => {
    // The review's token, claiming platform ownership; and one in today's format naming a live session.
    const reviewed = signPrincipal({ kind: 'user', userId: 'attacker', sessionId: 'none', platformOwner: true }, FORMER_REALTIME_KEY);
    const current = issueRealtimeToken({ userId: users.member.userId, sessionHash: hashToken(users.member.token) }, FORMER_DEVELOPMENT_SECRET, Date.now()).token;
    for (const forged of [reviewed, current]) {
      const response = await fetch(`${platform?.url}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(forged)}`);
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
  });

  it('finding 7: the access log carries no realtime token, whether the stream opened or was refused', async () => {
    const issued = await call('GET', '/api/realtime/token', users.member.token);
    expect(issued.status).toBe(200);
    const token = issued.body.token as string;
    const forged = `${token.split('.')[0]}.${randomBytes(32).toString('base64url')}`;
    const stream = `${project.replace('/api/projects', '/api/realtime/projects')}/sync`;
    const opened = new AbortController();
    expect((await fetch(`${platform?.url}${stream}?token=${encodeURIComponent(token)}`, { signal: opened.signal })).status).toBe(200);
    opened.abort();
    const refused = await fetch(`${platform?.url}${stream}?token=${encodeURIComponent(forged)}`);
    expect(refused.status).toBe(401);
    await refused.body?.cancel();
    // Both requests reach the access log once they end.
    await expect.poll(() => platform?.logText().split(`${stream}?token=[redacted]`).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    for (const credential of [token, forged, users.member.token]) {
      expect(platform?.logText()).not.toContain(credential);
      expect(platform?.logText()).not.toContain(encodeURIComponent(credential));
    }
  });

  it('finding 6: a logout ends the open stream and the realtime tokens issued before it', async () => {
    const stream = await openSyncStream(platform?.url ?? '', users.leaver.token, projectId);
    expect(stream).toBeDefined();
    const issued = await call('GET', '/api/realtime/token', users.leaver.token);
    expect(issued.status).toBe(200);
    expect((await call('POST', '/api/auth/logout', users.leaver.token)).status).toBe(204);
    await expect.poll(() => stream?.ended(), { timeout: 7_000, interval: 50 }).toBe(true);
    const reopened = await fetch(`${platform?.url}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(issued.body.token)}`);
    expect(reopened.status).toBe(401);
    await reopened.body?.cancel();
  }, 15_000);

  it('finding 9: a client sending its headers or its body a byte at a time is cut off with 408', async () => {
    const url = platform?.url ?? '';
    const headers = await slowClient(url, 'GET /api/health HTTP/1.1\r\n', 'X-Slow: 1\r\n'.repeat(100), { dripEveryMs: 100, waitMs: 10_000 });
    expect(headers.closedAfterMs).not.toBeNull();
    expect(headers.received).toMatch(/^HTTP\/1\.1 408 /);

    const body = JSON.stringify({ email: 'slow@example.org', password: 'x'.repeat(200) });
    const request = `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const dripped = await slowClient(url, request, body, { dripEveryMs: 100, waitMs: 10_000 });
    expect(dripped.closedAfterMs).not.toBeNull();
    expect(dripped.received).toMatch(/^HTTP\/1\.1 408 /);
  }, 25_000);

  // Last: every attempt counts against the caller's address, so sign-ins from it are throttled afterwards.
  it('finding 3: of 30 parallel wrong passwords for one account, at most the limit of 5 are checked', async () => {
    const email = `parallel-${randomBytes(4).toString('hex')}@example.org`;
    expect((await call('POST', '/api/auth/register', undefined, { email, password: 'the right password' })).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, attempt) => call('POST', '/api/auth/login', undefined, { email, password: `wrong ${attempt}` })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 429 && status !== 401)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect((await call('POST', '/api/auth/login', undefined, { email, password: 'the right password' })).status).toBe(429);
  });
}

describe('issue 32 findings, all-in-one', () => {
  securityReviewSuite(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'security-review-'));
    let lines = '';
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void (lines += line) } });
    const platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, ...SLOW_CLIENT_ENVIRONMENT }), { logger });
    return {
      url: platform.url,
      logText: () => lines,
      async close() {
        await platform.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
});

describeWithBackends(['mongo', 'nats', 'redis'], 'issue 32 findings, microservices', (urls) => {
  securityReviewSuite(async () => {
    let lines = '';
    const topology = await startLocalTopology({
      backendUrls: urls,
      extraEnvironment: { LOG_LEVEL: 'info', MONGO_DATABASE: `review_${randomBytes(4).toString('hex')}`, ...SLOW_CLIENT_ENVIRONMENT },
      onLine: (_service, line) => void (lines += `${line}\n`),
    });
    return { url: topology.gatewayUrl, logText: () => lines, close: () => topology.stop() };
  });
});
