import { createActionsService } from '@platform/actions';
import { backendServiceNames, serviceNames, sessionCookieName, type BackendServiceName } from '@platform/contracts';
import { buildGateway } from '@platform/gateway';
import cookie from '@fastify/cookie';
import {
  acceptedSecrets,
  ConfigError,
  createApp,
  createLogger,
  createLogMailer,
  createSmtpMailer,
  HealthMonitor,
  httpTimeoutsFrom,
  sharedProjectAccess,
  trustSignedPrincipal,
  type Clock,
  type Logger,
  type ServiceContext,
  type ServiceDefinition,
} from '@platform/kit';
import { directoryBytes, instrumentBus, instrumentStore, measureEmbeddedData, startTracingFromEnv, tracingErrorReporter } from '@platform/telemetry';
import type { FastifyInstance } from 'fastify';
import { adapterProbes, closeAdapters, openAdapters } from './adapters';
import type { PlatformConfig } from './config';
import { startMetricsListener } from './metrics-listener';
import { logStoreLoaded } from './store-ceiling';
import { resolveDevelopmentWebhookSecret, resolvePrincipalSecret } from './principal-secret';
import { listenUrl, publicUrl } from './public-url';
import { serviceRegistry } from './service-registry';

export interface RunningPlatform {
  /** Base URL it listens on, e.g. http://127.0.0.1:3000. */
  url: string;
  app: FastifyInstance;
  /** What the hosted services share; absent in a gateway-only process. */
  context: ServiceContext | undefined;
  /** Where Prometheus scrapes this process (`GET /metrics`), when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  close(): Promise<void>;
}

const serviceUrlVariable = {
  identity: 'IDENTITY_URL',
  data: 'DATA_URL',
  audit: 'AUDIT_URL',
  publishing: 'PUBLISHING_URL',
  actions: 'ACTIONS_URL',
  visitors: 'VISITORS_URL',
} as const satisfies Record<BackendServiceName, keyof PlatformConfig>;

/** Where the gateway reaches each service it does not host; every one must have a URL. */
function remoteServiceUrls(config: PlatformConfig, hosted: BackendServiceName[]): Map<BackendServiceName, string> {
  const remotes = new Map<BackendServiceName, string>();
  const missing: string[] = [];
  for (const name of backendServiceNames) {
    if (hosted.includes(name)) continue;
    const url = config[serviceUrlVariable[name]];
    if (typeof url === 'string') remotes.set(name, url.replace(/\/$/, ''));
    else missing.push(`${serviceUrlVariable[name]}: required when SERVICES does not include ${name}`);
  }
  if (missing.length) throw new ConfigError(missing);
  return remotes;
}

/** The services in the order they start: the data service last (see startPlatform). */
function startOrder(services: ServiceDefinition[]): ServiceDefinition[] {
  return [...services.filter((service) => service.name !== 'data'), ...services.filter((service) => service.name === 'data')];
}

/**
 * Starts one process of the platform: the services named in SERVICES (all by default) on the
 * adapters the environment selects. With the gateway, hosted services are mounted in-process and
 * the others proxied; without it, the services answer only requests the gateway signed.
 */
export async function startPlatform(config: PlatformConfig, options: { clock?: Clock; logger?: Logger } = {}): Promise<RunningPlatform> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: [...config.services].join(',') });
  const clock = options.clock ?? Date.now;
  const timeouts = httpTimeoutsFrom(config);
  const hosted = backendServiceNames.filter((name) => config.services.has(name));
  const remotes = config.services.has('gateway') ? remoteServiceUrls(config, hosted) : new Map<BackendServiceName, string>();
  const principalSecret = await resolvePrincipalSecret(config, logger);
  // A development all-in-one without ACTIONS_WEBHOOK_SECRET signs webhooks with one it keeps in DATA_DIR.
  const webhookSecret = await resolveDevelopmentWebhookSecret(config, serviceNames, process.env, logger);
  const tracing = startTracingFromEnv(config, config.services.size === serviceNames.length ? 'platform' : `platform-${[...config.services].join('-')}`, {
    onError: tracingErrorReporter(logger),
    logSpan: (fields, message) => logger.info(fields, message),
  });

  // The realtime channel reads project membership from the shared store; a gateway-only process
  // opens it only when given MONGO_URL (an embedded store there would be a different, empty one).
  const realtime = config.REALTIME_ENABLED && config.services.has('gateway') && (hosted.length > 0 || config.MONGO_URL !== undefined);
  if (config.REALTIME_ENABLED && config.services.has('gateway') && !realtime) logger.warn('realtime disabled: a gateway-only process needs MONGO_URL to check subscribers');
  const adapters = await openAdapters(config, { withStore: hosted.length > 0 || realtime, logger });
  if (adapters.store) logStoreLoaded(adapters.store, logger, config.EMBEDDED_MEMORY_BUDGET_MB);
  // The bus every hosted service gets carries trace context and counts its messages; the store
  // times its operations (spans inside a trace).
  adapters.bus = instrumentBus(adapters.bus);
  if (adapters.store) adapters.store = instrumentStore(adapters.store);
  const embeddedData = adapters.store?.kind === 'embedded' || adapters.kv.kind === 'embedded';
  const stopMeasuringData = embeddedData ? measureEmbeddedData(() => directoryBytes(config.DATA_DIR)) : undefined;
  const mailer = config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }) : createLogMailer(logger);
  // One cache of project standing for every hosted service and the realtime channel.
  const access = adapters.store ? sharedProjectAccess({ store: adapters.store, bus: adapters.bus, clock, logger, cacheMs: config.PROJECT_ACCESS_CACHE_MS }) : undefined;
  // PORT=0 is settled by listen; links written before that have none to wait for.
  let listenedPort = config.PORT;
  const context: ServiceContext | undefined =
    adapters.store && access && hosted.length > 0 ? { dev: config.dev, logger, clock, mailer, ...adapters, store: adapters.store, ...access, publicUrl: () => publicUrl(config, listenedPort) } : undefined;
  const services = hosted.map((name) => (name === 'actions' && webhookSecret ? createActionsService({ webhookSecret }) : serviceRegistry[name]));
  const stops: Array<() => Promise<void>> = [];

  let app: FastifyInstance;
  let monitors: { start(): Promise<void>; stop(): void };
  if (config.services.has('gateway')) {
    const gateway = await buildGateway({
      logger,
      kv: adapters.kv,
      clock,
      principalSecret,
      principalSecretFallback: config.principalSecretFallback,
      // Identity sets it Secure outside development (services/identity/src/auth/session-cookie.ts).
      sessionCookie: sessionCookieName(!config.dev),
      local: context ? { services, context } : undefined,
      remotes,
      dependencyProbes: adapterProbes(adapters, config.EMBEDDED_MEMORY_BUDGET_MB),
      bodyLimit: config.BODY_LIMIT_BYTES,
      trustProxy: config.TRUST_PROXY,
      corsOrigins: config.CORS_ORIGINS,
      ...(config.RATE_LIMIT_MAX ? { rateLimit: { max: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS } } : {}),
      timeouts,
      consoleRoot: config.CONSOLE_DIR,
      guidesRoot: config.GUIDES_DIR,
      ...(realtime && access ? { realtime: { bus: adapters.bus, projects: access.projectAccess } } : {}),
      ...(access ? { accessChanges: access.accessChanges } : {}),
      realtimeSessionCheckMs: config.REALTIME_SESSION_CHECK_MS,
      realtimeKeepAliveMs: config.REALTIME_KEEP_ALIVE_MS,
      realtimeLimits: { perUser: config.REALTIME_MAX_STREAMS_PER_USER, perAddress: config.REALTIME_MAX_STREAMS_PER_ADDRESS, total: config.REALTIME_MAX_STREAMS },
      realtimeMaxBufferedBytes: config.REALTIME_MAX_BUFFERED_BYTES,
      apiDocsRefreshMs: config.API_DOCS_REFRESH_MS,
    });
    app = gateway.app;
    monitors = gateway;
  } else {
    if (!context) throw new ConfigError(['SERVICES: names no service to host']);
    app = await createApp({ logger, title: `Platform ${hosted.join(', ')} service`, bodyLimit: config.BODY_LIMIT_BYTES, trustProxy: 1, timeouts });
    await app.register(cookie);
    trustSignedPrincipal(app, acceptedSecrets(principalSecret, config.principalSecretFallback));
    const dependencies = new HealthMonitor();
    for (const probe of adapterProbes(adapters, config.EMBEDDED_MEMORY_BUDGET_MB)) dependencies.register(probe.name, probe.probe, probe.kind);
    app.get('/api/health', { schema: { hide: true } }, async (request) => {
      const snapshot = dependencies.snapshot();
      const status = Object.values(snapshot).every((state) => state.up) ? 'ok' : 'degraded';
      // Backend states only for a platform owner the gateway signed; probes get the status.
      if (request.principal.kind !== 'user' || !request.principal.platformOwner) return { status };
      return {
        status,
        services: Object.fromEntries(hosted.map((name) => [name, { up: true }])),
        dependencies: snapshot,
        accessRevocation: context.accessChanges.revocation(snapshot.bus?.up === true),
      };
    });
    for (const service of services) await app.register(service.routes, context);
    monitors = { start: () => dependencies.start(), stop: () => dependencies.stop() };
  }

  let metrics: Awaited<ReturnType<typeof startMetricsListener>> | undefined;
  try {
    if (config.METRICS_PORT !== undefined) metrics = await startMetricsListener(config.METRICS_HOST, config.METRICS_PORT);
    if (access) {
      await access.accessChanges.follow();
      stops.push(() => access.accessChanges.stop());
    }
    // The data service starts last: its start publishes what outboxes still hold (a crash's
    // unconsumed events), and on the in-process bus an entry leaves its outbox once the consumers
    // subscribed by then have handled it, so audit, actions and publishing subscribe first.
    for (const service of startOrder(services)) if (service.start && context) stops.push(await service.start(context));
    await monitors.start();
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (error) {
    await Promise.allSettled(stops.map((stop) => stop()));
    await app.close();
    await metrics?.close();
    stopMeasuringData?.();
    await closeAdapters(adapters);
    await tracing?.shutdown();
    throw error;
  }
  const address = app.server.address();
  listenedPort = typeof address === 'object' && address ? address.port : config.PORT;
  const url = publicUrl(config, listenedPort);
  // Where a person goes next, when this process is the front door: the console and the API's pages.
  const frontDoor = config.services.has('gateway') ? { console: `${url}/console/`, apiDocs: `${url}/api/docs` } : {};
  logger.info({ services: [...config.services], store: adapters.store?.kind, bus: adapters.bus.kind, kv: adapters.kv.kind, port: listenedPort, url, ...frontDoor, metrics: metrics?.url, tracing: tracing !== undefined }, 'platform started');

  return {
    url: listenUrl(config.HOST, listenedPort),
    app,
    context,
    metricsUrl: metrics?.url,
    async close() {
      monitors.stop();
      // No new requests, and the running ones finish (their events published), before the drain.
      await app.close();
      // The consumers still run: what they finish now the next start need not publish again.
      const { left } = await adapters.bus.drain(config.SHUTDOWN_DRAIN_MS);
      if (Object.keys(left).length > 0) {
        logger.warn(
          { left, drainLimitMs: config.SHUTDOWN_DRAIN_MS },
          'shutdown: events not handled within SHUTDOWN_DRAIN_MS (messages left per durable) stay in their documents\' outboxes and reach these consumers after the next start',
        );
      }
      await Promise.allSettled(stops.map((stop) => stop()));
      await metrics?.close();
      stopMeasuringData?.();
      await closeAdapters(adapters);
      await tracing?.shutdown();
    },
  };
}
