import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { realtimeStreams } from '@platform/telemetry';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing';
import { syncBroadcastSubject, type RoutedSyncNotification } from './sync-notification';

/** Small caps, so the tests reach them with a few streams each. */
const PER_USER = 2;
const PER_ADDRESS = 3;
const TOTAL = 5;
const MAX_BUFFERED_BYTES = 64 * 1024;

let gateway: TestGateway;
let projectId: string;
const closers: Array<() => void> = [];

beforeAll(async () => {
  gateway = await startTestGateway({
    services: [],
    realtime: true,
    // Each test's streams come from their own X-Forwarded-For addresses.
    trustProxy: 1,
    realtimeLimits: { realtimeLimits: { perUser: PER_USER, perAddress: PER_ADDRESS, total: TOTAL }, realtimeMaxBufferedBytes: MAX_BUFFERED_BYTES },
  });
  projectId = await gateway.seedProject({ ownerId: 'owner', members: ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map((userId) => ({ userId })) });
});

async function openCount(): Promise<number> {
  return (await realtimeStreams.get()).values[0]?.value ?? 0;
}

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  // The server counts a stream until it sees it close.
  await expect.poll(openCount, { timeout: 5_000 }).toBe(0);
});

afterAll(async () => {
  await gateway?.close();
});

function streamPath(id = projectId, token?: string): string {
  return `/api/realtime/projects/${id}/sync${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
}

/** Opens a stream with a session from `address`; answers the refusal when it is not 200. */
async function open(session: string, address: string, path = streamPath()) {
  const abort = new AbortController();
  const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${session}`, 'x-forwarded-for': address }, signal: abort.signal });
  if (response.status !== 200) return { ok: false as const, status: response.status, headers: response.headers, body: (await response.json()) as { code: string; details?: Record<string, unknown> } };
  const state = { text: '', events: 0, ended: false };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      state.events += text.split('event: sync\n').length - 1;
      // Only the tail: a slow-consumer test sends megabytes.
      state.text = (state.text + text).slice(-32_768);
    }
    state.ended = true;
  })();
  await expect.poll(() => state.text, { timeout: 5_000 }).toContain('event: ready');
  const close = () => abort.abort();
  closers.push(close);
  return { ok: true as const, status: 200, state, close };
}

async function realtimeToken(session: string): Promise<string> {
  const issued = await gateway.call('GET', '/api/realtime/token', { token: session });
  expect(issued.status).toBe(200);
  return issued.body.token as string;
}

describe('open realtime streams are capped', () => {
  it(`per user across sessions, tokens and addresses: the ${PER_USER + 1}th answers 429 with Retry-After; closing one lets one more open`, async () => {
    const [first, second] = [await gateway.signIn('alice'), await gateway.signIn('alice')];
    const bySession = await open(first, '10.0.1.1');
    expect(bySession.status).toBe(200);
    const byToken = await open(second, '10.0.1.2', streamPath(projectId, await realtimeToken(second)));
    expect(byToken.status).toBe(200);
    for (const address of ['10.0.1.1', '10.0.1.3']) {
      const refused = await open(first, address);
      expect(refused.status).toBe(429);
      if (refused.ok) return;
      expect(refused.body.code).toBe('REALTIME_TOO_MANY_STREAMS_PER_USER');
      expect(refused.body.details).toMatchObject({ limit: PER_USER });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await openCount()).toBe(2);
    // Another user is not held back by alice's streams.
    expect((await open(await gateway.signIn('bob'), '10.0.1.4')).status).toBe(200);

    if (bySession.ok) bySession.close();
    await expect.poll(async () => (await open(first, '10.0.1.1')).status, { timeout: 5_000, interval: 100 }).toBe(200);
    // Exactly one slot came back.
    expect((await open(second, '10.0.1.5')).status).toBe(429);
  });

  it(`per client address across users: the ${PER_ADDRESS + 1}th from one address answers 429, another address opens`, async () => {
    const address = '10.0.2.1';
    for (const user of ['alice', 'alice', 'bob']) expect((await open(await gateway.signIn(user), address)).status).toBe(200);
    const carol = await gateway.signIn('carol');
    const refused = await open(carol, address);
    expect(refused.status).toBe(429);
    if (!refused.ok) {
      expect(refused.body.code).toBe('REALTIME_TOO_MANY_STREAMS_PER_ADDRESS');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await open(carol, '10.0.2.2')).status).toBe(200);
    expect(await openCount()).toBe(4);
  });

  it(`in the process: the ${TOTAL + 1}th stream answers 429 whoever opens it`, async () => {
    const users = ['alice', 'bob', 'carol', 'dave', 'erin'];
    for (const [index, user] of users.entries()) expect((await open(await gateway.signIn(user), `10.0.3.${index + 1}`)).status).toBe(200);
    const refused = await open(await gateway.signIn('frank'), '10.0.3.9');
    expect(refused.status).toBe(429);
    if (!refused.ok) expect(refused.body.code).toBe('REALTIME_TOO_MANY_STREAMS');
    expect(await openCount()).toBe(TOTAL);
  });

  it('refused requests (bad input, bad token, non-member, over a cap) count nothing', async () => {
    const alice = await gateway.signIn('alice');
    const outsider = await gateway.signIn('outsider');
    for (let round = 0; round < PER_USER + 1; round += 1) {
      // An overlong id is refused before the route (414) or by its schema (400): a 4xx either way.
      expect(Math.floor((await open(alice, '10.0.4.1', streamPath('x'.repeat(129)))).status / 100)).toBe(4);
      expect((await open(alice, '10.0.4.1', `${streamPath()}?token=x&unknown=1`)).status).toBe(400);
      expect((await open(alice, '10.0.4.1', streamPath(projectId, 'not-a-token'))).status).toBe(401);
      expect((await open(alice, '10.0.4.1', streamPath('pmissing'))).status).toBe(404);
      expect((await open(outsider, '10.0.4.1')).status).toBe(404);
    }
    expect(await openCount()).toBe(0);
    for (let index = 0; index < PER_USER; index += 1) expect((await open(alice, '10.0.4.1')).status).toBe(200);
  });
});

/** A client that reads the stream's head and then nothing more, as a stalled or malicious one would. */
async function nonReadingStream(session: string, address: string): Promise<{ socket: Socket; ended: Promise<string> }> {
  const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
  socket.write(`GET ${streamPath()} HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${session}\r\nx-forwarded-for: ${address}\r\n\r\n`);
  let received = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received += chunk.toString();
      if (!received.includes('event: ready')) return;
      socket.off('data', onData);
      socket.pause();
      resolve();
    };
    socket.on('data', onData).on('error', reject);
  });
  expect(received).toMatch(/^HTTP\/1\.1 200/);
  // Once resumed: what it still gets (the tail) before the server's close.
  const ended = new Promise<string>((resolve) => {
    let tail = '';
    socket.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-32_768)));
    socket.on('close', () => resolve(tail));
  });
  closers.push(() => socket.destroy());
  return { socket, ended };
}

describe('a slow consumer', () => {
  it(`is closed once its unsent bytes would pass the threshold (${MAX_BUFFERED_BYTES / 1024} KiB here), while other streams keep receiving`, async () => {
    const slow = await nonReadingStream(await gateway.signIn('alice'), '10.0.5.1');
    const reading = await open(await gateway.signIn('bob'), '10.0.5.2');
    expect(reading.status).toBe(200);
    if (!reading.ok) return;
    expect(await openCount()).toBe(2);

    // About 16 KiB per event (the id names the entity too); a few at a time, so the reading client
    // keeps up. The kernel's socket buffers take the first megabytes the slow client does not read.
    const padding = 'x'.repeat(8_000);
    let sent = 0;
    const notify = () => {
      sent += 1;
      const routed: RoutedSyncNotification = { notification: { projectId, typeId: 'tasks', entityId: `e${sent}-${padding}`, revision: 1, kind: 'created', updatedAt: Date.now() } };
      return gateway.context.bus.broadcast(syncBroadcastSubject(projectId), routed);
    };
    while ((await openCount()) === 2 && sent < 2_000) {
      for (let index = 0; index < 4; index += 1) await notify();
      await sleep(5);
    }
    expect(await openCount()).toBe(1);
    expect(sent).toBeLessThan(2_000);

    // The others still get everything, before and after the drop.
    for (let index = 0; index < 3; index += 1) await notify();
    await expect.poll(() => reading.state.events, { timeout: 5_000 }).toBe(sent);
    expect(reading.state.text).toContain(`"entityId":"e${sent}-`);
    expect(reading.state.ended).toBe(false);

    // The slow client, reading again, gets what the kernel held and then the end of the stream,
    // nothing sent after it was dropped.
    slow.socket.resume();
    const tail = await slow.ended;
    expect(tail).not.toContain(`"entityId":"e${sent}-`);

    // Its user may open a stream again (the SDK reconnects and pulls what it missed).
    expect((await open(await gateway.signIn('alice'), '10.0.5.1')).status).toBe(200);
  }, 30_000);
});
