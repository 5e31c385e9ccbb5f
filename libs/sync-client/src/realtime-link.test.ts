import { describe, expect, it } from 'vitest';
import { Http } from './http';
import { RealtimeLink } from './realtime-link';
import { Backoff, type Timers } from './timers';
import type { RealtimeStatus } from './types';

const KEEP_ALIVE_MS = 1_000;
const STALL_MS = 2 * KEEP_ALIVE_MS;

/** A stream that says `ready`, then (when `keepAliveAfterMs` is given) one keep-alive that much later on the clock, then ends. */
function cutStream(clock: { now: number }, keepAliveAfterMs?: number): Response {
  const encoder = new TextEncoder();
  const chunks = [`event: ready\ndata: {"keepAliveMs":${KEEP_ALIVE_MS}}\n\n`, ...(keepAliveAfterMs === undefined ? [] : [': keep-alive\n\n'])];
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks.length) return controller.close();
      if (sent === 1) clock.now += keepAliveAfterMs as number;
      controller.enqueue(encoder.encode(chunks[sent++]));
    },
    // Pulled only when read: the clock moves when the keep-alive is read, not ahead of it.
  }, { highWaterMark: 0 });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/**
 * A link to a server that cuts every stream, the n-th right after `ready` or, when `cuts[n]` is a
 * number, that long after it (one keep-alive later); on manual timers. Answers the delays it
 * waited after each cut before reconnecting (one more than `cuts`: the last stream is cut too).
 */
async function reconnectDelays(cuts: Array<number | undefined>): Promise<number[]> {
  const clock = { now: 0 };
  const due: Array<() => void> = [];
  const delays: number[] = [];
  const timers: Timers = {
    now: () => clock.now,
    setTimeout: (callback, ms) => {
      // The stall watchdog is armed with STALL_MS; every other timer is a reconnection.
      if (ms !== STALL_MS) {
        delays.push(ms);
        due.push(callback);
      }
      return callback;
    },
    clearTimeout: () => undefined,
  };
  let streams = 0;
  const fetch: typeof globalThis.fetch = async (input) => {
    if (String(input).endsWith('/api/realtime/token')) return Response.json({ token: 't', streamPath: '/api/realtime/projects/{projectId}/stream' });
    return cutStream(clock, cuts[streams++]);
  };
  const statuses: RealtimeStatus[] = [];
  const link = new RealtimeLink({
    http: new Http({ baseUrl: 'http://platform.test', fetch }),
    projectId: 'p1',
    timers,
    backoff: new Backoff({ initialMs: 100, factor: 2, maxMs: 60_000, random: () => 1 }),
    recheckDisabledMs: 30_000,
    stallMs: STALL_MS,
    onNotification: () => undefined,
    onAccessChanged: () => undefined,
    onStatus: (status) => statuses.push(status),
    onUnauthorized: () => undefined,
    onProjectMissing: () => undefined,
  });
  link.start();
  for (let reconnection = 0; reconnection < cuts.length; reconnection += 1) {
    await expect.poll(() => due.length).toBe(reconnection + 1);
    (due[reconnection] as () => void)();
  }
  await expect.poll(() => due.length).toBe(cuts.length + 1);
  link.stop();
  expect(statuses.filter((status) => status === 'live')).toHaveLength(cuts.length + 1);
  return delays;
}

describe('the realtime link reconnecting to a server that cuts its streams', () => {
  it('waits ever longer when every stream is cut right after ready, instead of reconnecting at the first step each time', async () => {
    expect(await reconnectDelays([undefined, undefined, undefined, undefined])).toEqual([100, 200, 400, 800, 1_600]);
  });

  it('starts its backoff over once a stream has stayed up a keep-alive interval', async () => {
    // The third stream stays up a keep-alive interval: the wait after it is the first step again.
    expect(await reconnectDelays([undefined, undefined, KEEP_ALIVE_MS, undefined])).toEqual([100, 200, 100, 200, 400]);
  });
});
