import cookie from '@fastify/cookie';
import type { EventBus } from '@platform/bus';
import type { BackendServiceName, HealthBody } from '@platform/contracts';
import { createApp, HealthMonitor, type AccessChanges, type HttpTimeouts, type Logger, type ProjectAccess, type ServiceContext, type ServiceDefinition, type TrustProxy } from '@platform/kit';
import type { KeyValue } from '@platform/kv';
import type { FastifyInstance } from 'fastify';
import { registerAgentDocsRoutes } from './agent-docs';
import { stripClientCredentials } from './client-credentials';
import { registerConsole } from './console-assets';
import { registerCors } from './cors';
import { registerGuides } from './guides';
import { registerHealthRoute, registerLocalServiceHealthRoutes } from './health';
import { platformOwnerSession } from './health-viewer';
import { registerProxies } from './proxy';
import { registerRateLimit, type RateLimitSettings } from './rate-limit';
import { registerRealtime } from './realtime/realtime-routes';
import type { StreamLimitSettings } from './realtime/stream-limits';
import { RemoteApiDocs } from './remote-api-docs';
import { registerSecurityHeaders } from './security-headers';
import { SessionLoader } from './session-loader';
import { SessionUseRecorder } from './session-use-recorder';
import { registerSessionHook } from './session-hook';

export interface GatewayOptions {
  logger: Logger;
  kv: KeyValue;
  clock: () => number;
  principalSecret: string;
  /** PRINCIPAL_SECRET_FALLBACK: another secret whose realtime tokens are accepted while PRINCIPAL_SECRET is rotated (never used to sign). */
  principalSecretFallback?: string | undefined;
  /** Services mounted in this process, with the context they share. */
  local: { services: ServiceDefinition[]; context: ServiceContext } | undefined;
  /** The session cookie's name: sessionCookieName(the cookie is Secure), as identity sets it. */
  sessionCookie: string;
  /** Services reached over HTTP: name to base URL. */
  remotes: ReadonlyMap<BackendServiceName, string>;
  /** Probes of the backends this process holds (store, bus, kv). */
  dependencyProbes: Array<{ name: string; kind: string; probe: () => Promise<boolean> }>;
  bodyLimit?: number;
  /** Whose X-Forwarded-For to believe: the proxies in front (TRUST_PROXY); none by default. */
  trustProxy?: TrustProxy;
  /** Limits on slow clients and idle connections (the kit's defaults when absent). */
  timeouts?: HttpTimeouts;
  /** The realtime sync channel's backends; absent when realtime is disabled (token route answers 503). */
  realtime?: { bus: EventBus; projects: ProjectAccess };
  /** How often open realtime streams' sessions are checked again (the realtime channel's default when absent). */
  realtimeSessionCheckMs?: number;
  /** How often an idle realtime stream carries a keep-alive comment (the realtime channel's default when absent). */
  realtimeKeepAliveMs?: number;
  /** Open realtime streams per user, per client address and in this process (REALTIME_MAX_STREAMS_*; the channel's defaults when absent). */
  realtimeLimits?: Partial<StreamLimitSettings>;
  /** A realtime stream whose unsent bytes would pass this is closed (REALTIME_MAX_BUFFERED_BYTES; 256 KiB when absent). */
  realtimeMaxBufferedBytes?: number;
  /** The process's access changes (absent when it caches no project standing), for /api/health. */
  accessChanges?: AccessChanges;
  /** The built web console's directory, served at /console; absent: no console. */
  consoleRoot?: string;
  /** The repository's docs/ directory, whose guides are served at /docs/*.md; absent: no guides. */
  guidesRoot?: string;
  /** How often the remote services' OpenAPI documents are read again (default 30 s). */
  apiDocsRefreshMs?: number;
  /** Origins whose browser applications may call the API (CORS); `*` for any; empty or absent: same-origin only. */
  corsOrigins?: readonly string[];
  /** Requests one caller may send per window (RATE_LIMIT_*); absent: no limit. */
  rateLimit?: RateLimitSettings;
}

export interface Gateway {
  app: FastifyInstance;
  start(): Promise<void>;
  stop(): void;
}

async function remoteHealthy(baseUrl: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(1_000) });
  return response.ok;
}

/**
 * The gateway: the session hook, the user guard's 401s, `/api/health`, the agent docs (`/llm.txt`)
 * and the one route table, served by in-process service plugins (all-in-one) or proxies to service
 * URLs (microservices), whose OpenAPI documents it merges into its own.
 */
export async function buildGateway(options: GatewayOptions): Promise<Gateway> {
  const remoteDocs =
    options.remotes.size > 0 ? new RemoteApiDocs({ remotes: options.remotes, principalSecret: options.principalSecret, refreshMs: options.apiDocsRefreshMs ?? 30_000, logger: options.logger }) : undefined;
  const app = await createApp({
    logger: options.logger,
    title: 'Platform API',
    sessionCookie: options.sessionCookie,
    trustRequestId: false,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    timeouts: options.timeouts,
    ...(remoteDocs ? { extendOpenapi: (document) => remoteDocs.extend(document), spanRoute: (request) => remoteDocs.routeTemplate(request.method, request.url) } : {}),
  });
  await registerSecurityHeaders(app);
  await registerCors(app, options.corsOrigins ?? []);
  const sessions = new SessionLoader(options.kv, options.clock);
  registerSessionHook(app, sessions, new SessionUseRecorder(options.kv, options.clock, app.log), options.sessionCookie);
  // Before any route: it joins each route's onRequest hooks as the route is added.
  if (options.rateLimit) await registerRateLimit(app, options.rateLimit, options.kv, options.clock);

  const services = new HealthMonitor();
  const dependencies = new HealthMonitor();
  for (const service of options.local?.services ?? []) services.register(service.name, async () => true, 'in-process');
  for (const [name, url] of options.remotes) services.register(name, () => remoteHealthy(url), url);
  for (const { name, kind, probe } of options.dependencyProbes) dependencies.register(name, probe, kind);
  const shape: HealthBody['shape'] = options.remotes.size === 0 ? 'all-in-one' : 'microservices';
  const healthDetail = platformOwnerSession(sessions, options.sessionCookie);
  registerHealthRoute(app, { services, dependencies }, shape, healthDetail, options.accessChanges);
  registerLocalServiceHealthRoutes(app, services, (options.local?.services ?? []).map((service) => service.name), healthDetail);
  registerAgentDocsRoutes(app);
  if (options.guidesRoot) registerGuides(app, { root: options.guidesRoot, logger: options.logger });
  if (options.consoleRoot) await registerConsole(app, { root: options.consoleRoot, logger: options.logger });
  await registerRealtime(app, { channel: options.realtime, principalSecret: options.principalSecret, principalSecretFallback: options.principalSecretFallback, sessions, sessionCookie: options.sessionCookie, clock: options.clock, logger: options.logger, sessionCheckMs: options.realtimeSessionCheckMs, keepAliveMs: options.realtimeKeepAliveMs, limits: options.realtimeLimits, maxBufferedBytes: options.realtimeMaxBufferedBytes });

  if (options.local) {
    const { services: hosted, context } = options.local;
    // In their own scope, so the caller's credentials are gone before any service route sees the
    // request (the session hook above has read them); the gateway's own routes keep them. The
    // cookie plugin is the services' (identity sets the session cookie): registered here, its
    // parsing and onSend hooks run for their routes only, not for the gateway's own or a proxied
    // request, whose session hook reads the Cookie header itself (kit's sessionToken).
    await app.register(async (scope) => {
      await scope.register(cookie);
      scope.addHook('onRequest', (request, _reply, done) => {
        stripClientCredentials(request);
        done();
      });
      for (const service of hosted) await scope.register(service.routes, context);
    });
  }
  await registerProxies(app, options.remotes, options.principalSecret);

  return {
    app,
    start: async () => void (await Promise.all([services.start(), dependencies.start(), remoteDocs?.start()])),
    stop: () => {
      services.stop();
      dependencies.stop();
      remoteDocs?.stop();
    },
  };
}
