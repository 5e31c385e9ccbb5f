import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus, type EventBus } from '@platform/bus';
import { PROJECT_MEMBERS_COLLECTION, projectMemberId, PROJECTS_COLLECTION, scopePermission, sessionCookieName, sessionKey, type Access, type SessionRecord } from '@platform/contracts';
import { createLogger, createLogMailer, hashToken, sharedProjectAccess, type Logger, type Mailer, type ServiceContext, type ServiceDefinition, type TrustProxy } from '@platform/kit';
import { createMemoryKeyValue, type KeyValue } from '@platform/kv';
import { createEmbeddedStore, type DocumentStore } from '@platform/storage';
import { buildGateway, type GatewayOptions } from './app';

export { slowClient, type SlowClientOutcome } from './slow-client';

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestGateway {
  url: string;
  context: ServiceContext;
  /** One HTTP call through the gateway; `token` is sent as `Authorization: Bearer`. */
  call<T = any>(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse<T>>;
  /** A session for `userId` written straight to the key-value store, as identity would; answers its token. */
  signIn(userId: string, options?: { platformOwner?: boolean; displayName?: string }): Promise<string>;
  /**
   * A project with an owner and members written straight to the store in identity's record shapes,
   * for service tests that need membership without going through identity. Permissions are scoped.
   */
  seedProject(project: { id?: string; ownerId: string; access?: Access; members?: Array<{ userId: string; permissions?: string[] }> }): Promise<string>;
  close(): Promise<void>;
}

/**
 * The gateway with the given services mounted in-process, listening on a loopback port, for API
 * tests that go through real HTTP. Embedded adapters on a fresh directory unless given.
 */
export async function startTestGateway(options: {
  services: ServiceDefinition[];
  clock?: () => number;
  dev?: boolean;
  store?: DocumentStore;
  bus?: EventBus;
  kv?: KeyValue;
  /** Where the services log (silent by default); tests read mails and promotion URLs from it. */
  logger?: Logger;
  /** Where the services send mails (to the log by default), for tests that read them without the log. */
  mailer?: Mailer;
  /** Serve the realtime sync channel (off by default: the token route answers 503). */
  realtime?: boolean;
  /** A built console directory to serve at /console (none by default). */
  consoleRoot?: string;
  /** A docs directory whose guides are served at /docs/*.md (none by default). */
  guidesRoot?: string;
  /** The realtime stream caps and slow-consumer threshold (the gateway's defaults when absent). */
  realtimeLimits?: Pick<GatewayOptions, 'realtimeLimits' | 'realtimeMaxBufferedBytes'>;
  /** Take the client address from X-Forwarded-For as TRUST_PROXY does (`1`: its right-most entry); off by default. */
  trustProxy?: TrustProxy;
}): Promise<TestGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'test-gateway-'));
  const logger = options.logger ?? createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const clock = options.clock ?? Date.now;
  const store = options.store ?? (await createEmbeddedStore({ dataDir }));
  const bus = options.bus ?? createInProcessBus();
  // Known once the gateway listens; nothing logs a link before that.
  let url = 'http://127.0.0.1';
  const context: ServiceContext = {
    dev: options.dev ?? true,
    logger,
    clock,
    store,
    bus,
    kv: options.kv ?? createMemoryKeyValue({ now: clock }),
    mailer: options.mailer ?? createLogMailer(logger),
    ...sharedProjectAccess({ store, bus, clock, logger }),
    publicUrl: () => url,
  };
  await context.accessChanges.follow();
  const stops: Array<() => Promise<void>> = [];
  for (const service of options.services) if (service.start) stops.push(await service.start(context));
  const gateway = await buildGateway({
    logger,
    kv: context.kv,
    clock,
    principalSecret: randomBytes(32).toString('hex'),
    sessionCookie: sessionCookieName(!context.dev),
    local: { services: options.services, context },
    remotes: new Map(),
    dependencyProbes: [],
    accessChanges: context.accessChanges,
    ...(options.realtime ? { realtime: { bus: context.bus, projects: context.projectAccess } } : {}),
    ...(options.consoleRoot ? { consoleRoot: options.consoleRoot } : {}),
    ...(options.guidesRoot ? { guidesRoot: options.guidesRoot } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    ...options.realtimeLimits,
  });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    context,
    async call(method, path, callOptions = {}) {
      const headers: Record<string, string> = { ...callOptions.headers };
      if (callOptions.token) headers.authorization = `Bearer ${callOptions.token}`;
      if (callOptions.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        body: callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body),
      });
      const text = await response.text();
      let body: unknown = text;
      if (text && response.headers.get('content-type')?.includes('json')) body = JSON.parse(text);
      return { status: response.status, body: body as any, headers: response.headers };
    },
    async signIn(userId, signInOptions = {}) {
      const token = randomBytes(32).toString('base64url');
      const now = clock();
      const session: SessionRecord = {
        id: randomBytes(8).toString('hex'),
        userId,
        createdAt: now,
        expiresAt: now + 30 * 24 * 60 * 60 * 1000,
        platformOwner: signInOptions.platformOwner ?? false,
        ...(signInOptions.displayName ? { displayName: signInOptions.displayName } : {}),
      };
      await context.kv.set(sessionKey(hashToken(token)), JSON.stringify(session));
      return token;
    },
    async seedProject(project) {
      const id = project.id ?? `p${randomBytes(6).toString('hex')}`;
      const now = clock();
      await context.store.collection(PROJECTS_COLLECTION).insertOne({
        id,
        name: `Project ${id}`,
        ownerId: project.ownerId,
        ...(project.access ? { access: project.access } : {}),
        aiEnabled: false,
        createdAt: now,
        updatedAt: now,
        revision: 0,
      });
      const members = [{ userId: project.ownerId, permissions: [] as string[], role: 'owner' as const }, ...(project.members ?? []).map((m) => ({ ...m, role: 'member' as const }))];
      for (const member of members) {
        await context.store.collection(PROJECT_MEMBERS_COLLECTION).insertOne({
          id: projectMemberId(id, member.userId),
          projectId: id,
          userId: member.userId,
          role: member.role,
          permissions: (member.permissions ?? []).map((permission) => scopePermission(id, permission)),
          createdAt: now,
        });
      }
      return id;
    },
    async close() {
      gateway.stop();
      await gateway.app.close();
      await Promise.allSettled(stops.map((stop) => stop()));
      await context.accessChanges.stop();
      if (!options.store) await context.store.close();
      if (!options.bus) await context.bus.close();
      if (!options.kv) await context.kv.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An embedded store on a temporary directory that outlives the test gateways started on it
 * (`startTestGateway({ store })`): what one run left, for the next to start on, as an upgrade
 * restarts a platform on the same DATA_DIR. `close` closes the store and removes the directory.
 */
export async function storeOnDisk(prefix: string): Promise<{ store: DocumentStore; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const store = await createEmbeddedStore({ dataDir });
  return {
    store,
    async close() {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
