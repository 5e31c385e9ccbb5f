import { createParser } from 'eventsource-parser';
import { isTransientStatus, retryAfterDelay, UnauthorizedError, type Http } from './http.js';
import type { Backoff, Timers } from './timers.js';
import type { AccessChangedNotification, RealtimeStatus, SyncNotification } from './types.js';

export interface RealtimeLinkOptions {
  http: Http;
  projectId: string;
  timers: Timers;
  backoff: Backoff;
  /** While the token endpoint answers 503 (realtime disabled), ask again this often. */
  recheckDisabledMs: number;
  /**
   * A stream that brings no byte (event or keep-alive comment) for this long is dead: it is dropped
   * and reconnected. Until the stream's `ready` event announces the server's keep-alive interval
   * (twice that replaces it).
   */
  stallMs: number;
  onNotification(notification: SyncNotification): void;
  /** The caller's access in the project changed (membership, permissions, an entity's rules): check what it may still read. */
  onAccessChanged(change: AccessChangedNotification): void;
  onStatus(status: RealtimeStatus): void;
  /** The session was refused (or the account must confirm its email first: `code`): the link stops until started again. */
  onUnauthorized(code?: string): void;
  /** The stream answered 404: the caller is no longer a member of the project (or it is gone). */
  onProjectMissing(): void;
}

/**
 * The subscription to `project:{projectId}:sync`: asks `GET /api/realtime/token` (503 means
 * realtime is disabled: report `polling` and ask again later), then reads the Server-Sent Events
 * stream with the global fetch. A broken stream reports `polling` and reconnects with backoff (no
 * sooner than a busy server's `Retry-After`).
 */
export class RealtimeLink {
  private stopped = true;
  /**
   * Bumped by every start and stop: a connection attempt still waiting for its token or stream
   * when the link was stopped (and maybe started again) sees it and gives up, so one link never
   * holds two streams.
   */
  private generation = 0;
  private abort: AbortController | undefined;
  private retry: unknown;
  private watchdog: unknown;
  private stallMs: number;

  constructor(private readonly options: RealtimeLinkOptions) {
    this.stallMs = options.stallMs;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.generation += 1;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.generation += 1;
    this.abort?.abort();
    this.unwatch();
    if (this.retry !== undefined) this.options.timers.clearTimeout(this.retry);
    this.retry = undefined;
    this.options.onStatus('stopped');
  }

  /** Reconnects at once if the link is waiting to retry (the network is back). */
  reconnectNow(): void {
    if (this.stopped || this.retry === undefined) return;
    this.options.timers.clearTimeout(this.retry);
    this.retry = undefined;
    this.options.backoff.reset();
    void this.connect();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.retry = this.options.timers.setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, ms);
  }

  /** Whether an attempt of `generation` is still the link's: not stopped since it began. */
  private current(generation: number): boolean {
    return !this.stopped && this.generation === generation;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const generation = this.generation;
    this.options.onStatus('connecting');
    const { http } = this.options;
    // The server's own `Retry-After` on a busy answer: the reconnection waits at least that long.
    let serverAskedMs: number | undefined;
    try {
      const answer = await http.request<{ token: string; streamPath: string }>('GET', '/api/realtime/token');
      if (!this.current(generation)) return;
      if (answer.status === 503) {
        this.options.onStatus('polling');
        return this.schedule(this.options.recheckDisabledMs);
      }
      serverAskedMs = answer.retryAfterMs;
      if (answer.status !== 200) throw new Error(`realtime token: HTTP ${answer.status}`);
      const path = answer.body.streamPath.replace('{projectId}', encodeURIComponent(this.options.projectId));
      const abort = (this.abort = new AbortController());
      this.watch(abort);
      const response = await http.fetch(http.url(`${path}?token=${encodeURIComponent(answer.body.token)}`), {
        headers: await http.headers({ accept: 'text/event-stream' }),
        signal: abort.signal,
      });
      if (!this.current(generation)) return abort.abort();
      if (response.status === 404) this.options.onProjectMissing();
      if (isTransientStatus(response.status)) serverAskedMs = retryAfterDelay(response.headers.get('retry-after'), Date.now());
      if (response.status !== 200 || !response.body) throw new Error(`realtime stream: HTTP ${response.status}`);
      await this.read(response.body, abort);
    } catch (error) {
      if (error instanceof UnauthorizedError && this.current(generation)) {
        this.stop();
        return this.options.onUnauthorized(error.code);
      }
      // Unreachable, refused or cut off: poll meanwhile and reconnect with backoff.
    }
    if (!this.current(generation)) return;
    this.unwatch();
    this.options.onStatus('polling');
    this.schedule(this.options.backoff.next(serverAskedMs));
  }

  /**
   * (Re)arms the stall watchdog: a network that drops silently neither closes nor resets the
   * stream, so silence past `stallMs` (twice the server's keep-alive interval) is the only sign.
   */
  private watch(abort: AbortController): void {
    this.unwatch();
    this.watchdog = this.options.timers.setTimeout(() => {
      this.watchdog = undefined;
      abort.abort(new Error('realtime stream stalled'));
    }, this.stallMs);
  }

  private unwatch(): void {
    if (this.watchdog !== undefined) this.options.timers.clearTimeout(this.watchdog);
    this.watchdog = undefined;
  }

  private async read(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<void> {
    const { timers, backoff } = this.options;
    // When the stream said `ready`; its backoff starts over once it has stayed up a keep-alive
    // interval: a stream cut right after `ready` every time reconnects ever more slowly, not twice a second.
    let liveAt: number | undefined;
    const parser = createParser({
      onEvent: (event) => {
        if (event.event === 'ready') {
          const { keepAliveMs } = JSON.parse(event.data) as { keepAliveMs?: unknown };
          if (typeof keepAliveMs === 'number' && keepAliveMs > 0) {
            this.stallMs = 2 * keepAliveMs;
            this.watch(abort);
          }
          liveAt = timers.now();
          this.options.onStatus('live');
        } else if (event.event === 'sync') {
          this.options.onNotification(JSON.parse(event.data) as SyncNotification);
        } else if (event.event === 'access-changed') {
          this.options.onAccessChanged(JSON.parse(event.data) as AccessChangedNotification);
        }
      },
    });
    const decoder = new TextDecoder();
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      this.watch(abort);
      parser.feed(decoder.decode(value, { stream: true }));
      if (liveAt !== undefined && timers.now() - liveAt >= this.stallMs / 2) {
        backoff.reset();
        liveAt = undefined;
      }
    }
  }
}
