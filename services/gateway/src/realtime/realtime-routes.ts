import type { EventBus } from '@platform/bus';
import { acceptedSecrets, requireUser, standingDigest, type Logger, type ProjectAccess } from '@platform/kit';
import { realtimeStreams } from '@platform/telemetry';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { realtimeError } from './realtime-errors';
import type { SessionLoader } from '../session-loader';
import { issueRealtimeToken } from './realtime-token';
import { SessionWatch } from './session-watch';
import { DEFAULT_STREAM_LIMITS, StreamLimits, type StreamLimitSettings } from './stream-limits';
import { sessionCaller, tokenCaller } from './stream-caller';
import { SyncHub } from './sync-hub';
import { syncChannel, type AccessChangedNotification, type SyncNotification } from './sync-notification';
import { startSyncNotifier } from './sync-notifier';
import { corsHeadersOf } from '../cors';

export interface RealtimeOptions {
  /**
   * What the channel needs; absent when realtime is disabled by configuration. `projects` is the
   * process's shared ProjectAccess, so a membership change stops deliveries as soon as it is announced.
   */
  channel: { bus: EventBus; projects: ProjectAccess } | undefined;
  principalSecret: string;
  /** Another secret whose tokens are accepted (never used to sign) while PRINCIPAL_SECRET is rotated. */
  principalSecretFallback?: string | undefined;
  /** Looks up the session behind each stream, when it opens and while it stays open. */
  sessions: SessionLoader;
  /** The session cookie's name (sessionCookieName). */
  sessionCookie: string;
  clock: () => number;
  logger: Logger;
  /** How often an idle stream carries an SSE comment, so proxies keep it open (default 15 s); announced in the `ready` event. */
  keepAliveMs?: number;
  /** How often the sessions of open streams are checked (default 5 s): a stream ends at most this long after its session. */
  sessionCheckMs?: number;
  /** Open streams per user, per client address and in the process (DEFAULT_STREAM_LIMITS where absent); past one: 429. */
  limits?: Partial<StreamLimitSettings>;
  /** A stream whose unsent bytes would pass this is closed (default 256 KiB): its client reads too slowly. */
  maxBufferedBytes?: number;
  /** A stream whose backed-up writes do not drain within this is closed too (default 30 s). */
  drainTimeoutMs?: number;
}

/** What clients should do while realtime is active (the spec's limits). */
const HEARTBEAT_POLL_MS = 30_000;

const DEFAULT_KEEP_ALIVE_MS = 15_000;

export const DEFAULT_MAX_BUFFERED_BYTES = 256 * 1024;

const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

const tokenResponse = z.object({
  token: z.string(),
  expiresAt: z.number(),
  streamPath: z.string().describe('Open within expiresAt with ?token=; {projectId} is the project to subscribe to'),
  heartbeatMs: z.number().describe('Clients still pull this often while notifications flow'),
});

function sseFrame(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The realtime channel `project:{projectId}:sync` over Server-Sent Events. `GET /api/realtime/token`
 * hands a signed-in caller a short-lived token naming its session (503 when realtime is disabled);
 * the stream route checks it, looks the session up and checks the caller's membership, then sends
 * one `sync` event per readable changed entity until the session ends (the session watch) or the
 * membership does (the hub). The sync notifier (shared durable) feeds every replica's hub through
 * the bus's live broadcast.
 */
export async function registerRealtime(app: FastifyInstance, options: RealtimeOptions): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const projects = options.channel?.projects;
  const hub = options.channel && projects ? new SyncHub({ bus: options.channel.bus, projects, logger: options.logger }) : undefined;
  const watch = new SessionWatch({ loader: options.sessions, logger: options.logger, intervalMs: options.sessionCheckMs });
  const limits = new StreamLimits({ ...DEFAULT_STREAM_LIMITS, ...options.limits });
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;

  typed.get(
    '/api/realtime/token',
    { schema: { tags: ['realtime'], summary: 'A token to open the sync stream; 503 when realtime is disabled (clients poll instead)', response: { 200: tokenResponse } } },
    async (request) => {
      requireUser(request);
      if (!hub) throw realtimeError('REALTIME_DISABLED');
      const { principal, sessionHash } = sessionCaller(request, options.sessionCookie);
      return { ...issueRealtimeToken({ userId: principal.userId, sessionHash }, options.principalSecret, options.clock()), streamPath: '/api/realtime/projects/{projectId}/sync', heartbeatMs: HEARTBEAT_POLL_MS };
    },
  );

  typed.get(
    '/api/realtime/projects/:projectId/sync',
    {
      schema: {
        tags: ['realtime'],
        summary: 'Server-Sent Events of project:{projectId}:sync: a `ready` event ({ channel, keepAliveMs }: the interval of the keep-alive comments), then one `sync` event per changed entity the member may read',
        params: z.object({ projectId: z.string().min(1).max(128) }),
        querystring: z.object({ token: z.string().max(4096).optional().describe('From /api/realtime/token; a session works too') }),
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      if (!hub || !projects) throw realtimeError('REALTIME_DISABLED');
      const { token } = request.query;
      const { principal, sessionHash } = token
        ? await tokenCaller(token, { loader: options.sessions, secrets: acceptedSecrets(options.principalSecret, options.principalSecretFallback), now: options.clock() })
        : sessionCaller(request, options.sessionCookie);
      const { projectId } = request.params;
      const { caller } = await projects.require(projectId, principal);

      // Counted before anything is written or subscribed: past a cap the answer is an ordinary 429.
      const release = limits.admit(principal.userId, request.ip);
      reply.hijack();
      const stream = reply.raw;
      const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
      let open = true;
      let keepAlive: NodeJS.Timeout | undefined;
      let drainTimer: NodeJS.Timeout | undefined;
      let remove = () => {};
      let unwatch = () => {};
      realtimeStreams.inc();
      /** Every way a stream closes comes here once: the client left, the session or membership ended, the server stops, or the client reads too slowly. */
      const end = (slow = false) => {
        if (!open) return;
        open = false;
        release();
        realtimeStreams.dec();
        clearInterval(keepAlive);
        clearTimeout(drainTimer);
        remove();
        unwatch();
        if (!slow) return void stream.end();
        options.logger.warn({ userId: principal.userId, projectId, bufferedBytes: stream.writableLength }, 'realtime stream closed: its client reads too slowly');
        // end() would queue behind what the client does not read; destroying frees the buffers now.
        stream.destroy();
      };
      // A client that does not read must not make the server buffer without bound: it is dropped and reconnects.
      const write = (chunk: string) => {
        if (!open) return;
        if (stream.writableLength + Buffer.byteLength(chunk) > maxBufferedBytes) return end(true);
        if (stream.write(chunk) || drainTimer) return;
        drainTimer = setTimeout(() => end(true), drainTimeoutMs);
        drainTimer.unref();
      };
      stream.on('drain', () => {
        clearTimeout(drainTimer);
        drainTimer = undefined;
      });
      stream.on('error', () => end());
      stream.on('close', () => end());
      request.raw.on('close', () => end());
      try {
        // Its own head: only the CORS headers of those set so far, so a browser application on an allowed origin can read it.
        stream.writeHead(200, { ...corsHeadersOf(reply), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
        remove = hub.add({
          projectId,
          principal,
          standing: standingDigest(caller),
          send: (notification: SyncNotification) => write(sseFrame('sync', notification, `${notification.typeId}/${notification.entityId}/${notification.revision}`)),
          sendAccessChanged: (change: AccessChangedNotification) => write(sseFrame('access-changed', change)),
          close: () => end(),
        });
        unwatch = watch.watch(sessionHash, { userId: principal.userId, platformOwner: principal.platformOwner, projectId, end: () => end() });
        // The keep-alive interval goes in the first event, so a client's stall detection follows this server's.
        write(`retry: 3000\n${sseFrame('ready', { channel: syncChannel(projectId), keepAliveMs })}`);
        if (open) {
          keepAlive = setInterval(() => write(': keep-alive\n\n'), keepAliveMs);
          keepAlive.unref();
        }
      } catch (error) {
        options.logger.warn({ err: error }, 'realtime stream failed to open');
        end();
      }
      // The client may have gone while the caller was looked up: no close event would come.
      if (request.raw.socket?.destroyed !== false) end();
    },
  );

  if (!options.channel || !hub) return;
  await hub.start();
  watch.start();
  await watch.follow(options.channel.bus);
  const notifier = await startSyncNotifier({ bus: options.channel.bus, clock: options.clock, logger: options.logger });
  // Streams never end by themselves: close them before the server waits for its connections.
  app.addHook('preClose', async () => {
    await notifier.stop();
    await watch.stop();
    await hub.stop();
  });
}
