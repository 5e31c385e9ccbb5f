import { randomBytes } from 'node:crypto';
import { sessionKey, type SessionRecord } from '@platform/contracts';
import { createLogger, hashToken } from '@platform/kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing';
import { issueRealtimeToken } from './realtime-token';
import { SESSION_CHECK_MS } from './session-watch';

/** Every line the gateway logs, as parsed JSON. */
const logLines: Array<Record<string, unknown>> = [];
const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) } });

let gateway: TestGateway;
let projectId: string;
const streams: Array<{ close(): void }> = [];

beforeAll(async () => {
  gateway = await startTestGateway({ services: [], realtime: true, logger });
  projectId = await gateway.seedProject({ ownerId: 'owner', members: [{ userId: 'alice' }] });
});

afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});

afterAll(async () => {
  await gateway?.close();
});

/** What identity's logout does: the session record is deleted. */
async function logOut(sessionToken: string): Promise<void> {
  await gateway.context.kv.delete(sessionKey(hashToken(sessionToken)));
}

async function realtimeToken(sessionToken: string): Promise<string> {
  const issued = await gateway.call('GET', '/api/realtime/token', { token: sessionToken });
  expect(issued.status).toBe(200);
  return issued.body.token as string;
}

function streamPath(token?: string): string {
  return `/api/realtime/projects/${projectId}/sync${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
}

/** Opens the stream and reads it until the server ends it; `ended` tells whether it has. */
async function openStream(options: { token?: string; sessionToken?: string }) {
  const abort = new AbortController();
  const headers: Record<string, string> = options.sessionToken ? { authorization: `Bearer ${options.sessionToken}` } : {};
  const response = await fetch(`${gateway.url}${streamPath(options.token)}`, { headers, signal: abort.signal });
  expect(response.status).toBe(200);
  const state = { text: '', ended: false };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      state.text += decoder.decode(value, { stream: true });
    }
    state.ended = true;
  })();
  await expect.poll(() => state.text, { timeout: 5_000 }).toContain('event: ready');
  const stream = { state, close: () => abort.abort() };
  streams.push(stream);
  return stream;
}

describe('realtime tokens are bound to their session', () => {
  it('a token of a session that has ended opens no stream', async () => {
    const session = await gateway.signIn('alice');
    const token = await realtimeToken(session);
    await logOut(session);
    const response = await gateway.call('GET', streamPath(token));
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('REALTIME_TOKEN_INVALID');
  });

  it('platform ownership comes from the session when the stream opens, not from the token', async () => {
    const session = await gateway.signIn('former-owner', { platformOwner: true });
    const token = await realtimeToken(session);
    const key = sessionKey(hashToken(session));
    const record = JSON.parse((await gateway.context.kv.get(key)) as string) as SessionRecord;
    await gateway.context.kv.set(key, JSON.stringify({ ...record, platformOwner: false }));
    const response = await gateway.call('GET', streamPath(token));
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('PROJECT_NOT_FOUND');
  });

  it("a token signed with another secret, or naming another user than its session's, is refused", async () => {
    const session = await gateway.signIn('alice');
    const sessionHash = hashToken(session);
    const otherSecret = issueRealtimeToken({ userId: 'alice', sessionHash }, randomBytes(32).toString('hex'), Date.now()).token;
    expect((await gateway.call('GET', streamPath(otherSecret))).body.code).toBe('REALTIME_TOKEN_INVALID');
    const outsider = await gateway.signIn('outsider');
    const [payload, signature] = (await realtimeToken(outsider)).split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString()) as Record<string, unknown>;
    const renamed = `${Buffer.from(JSON.stringify({ ...claims, u: 'alice' })).toString('base64url')}.${signature}`;
    expect((await gateway.call('GET', streamPath(renamed))).body.code).toBe('REALTIME_TOKEN_INVALID');
  });
});

describe('open streams end with their session', () => {
  it(`within ${SESSION_CHECK_MS / 1000} s of logout, whether opened with a realtime token or the session itself; other sessions stay`, async () => {
    const [ended, other] = [await gateway.signIn('alice'), await gateway.signIn('alice')];
    const byToken = await openStream({ token: await realtimeToken(ended) });
    const bySession = await openStream({ sessionToken: ended });
    const otherSession = await openStream({ token: await realtimeToken(other) });
    await logOut(ended);
    const loggedOutAt = Date.now();
    await expect.poll(() => byToken.state.ended && bySession.state.ended, { timeout: SESSION_CHECK_MS + 2_000, interval: 50 }).toBe(true);
    expect(Date.now() - loggedOutAt).toBeLessThanOrEqual(SESSION_CHECK_MS + 1_000);
    expect(otherSession.state.ended).toBe(false);
  }, 20_000);

  it(`within ${SESSION_CHECK_MS / 1000} s of the session's expiry, which no notice announces`, async () => {
    const [expiring, lasting] = [await gateway.signIn('alice'), await gateway.signIn('alice')];
    const expired = await openStream({ token: await realtimeToken(expiring) });
    const live = await openStream({ token: await realtimeToken(lasting) });
    const key = sessionKey(hashToken(expiring));
    const record = JSON.parse((await gateway.context.kv.get(key)) as string) as SessionRecord;
    await gateway.context.kv.set(key, JSON.stringify({ ...record, expiresAt: Date.now() }));
    await expect.poll(() => expired.state.ended, { timeout: SESSION_CHECK_MS + 2_000, interval: 50 }).toBe(true);
    expect(live.state.ended).toBe(false);
  }, 20_000);
});

describe('the access log', () => {
  it('carries no realtime token, whether the stream opened or was refused', async () => {
    const session = await gateway.signIn('alice');
    const token = await realtimeToken(session);
    const refused = issueRealtimeToken({ userId: 'alice', sessionHash: hashToken(session) }, randomBytes(32).toString('hex'), Date.now()).token;
    (await openStream({ token })).close();
    expect((await gateway.call('GET', streamPath(refused))).status).toBe(401);
    await expect
      .poll(() => logLines.filter((line) => line.msg === 'request' && String(line.url).includes('/sync?')).map((line) => line.url), { timeout: 5_000 })
      .toEqual(expect.arrayContaining([`${streamPath()}?token=[redacted]`]));
    const everything = logLines.map((line) => JSON.stringify(line)).join('\n');
    for (const credential of [token, refused, session]) {
      expect(everything).not.toContain(credential);
      expect(everything).not.toContain(encodeURIComponent(credential));
    }
  });
});
