import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessBus } from '@platform/bus';
import { SESSION_COOKIE, sessionKey } from '@platform/contracts';
import { dataService } from '@platform/data';
import { buildGateway, type Gateway } from '@platform/gateway';
import { createApp, createLogger, createLogMailer, hashToken, sharedProjectAccess, trustSignedPrincipal, type ServiceContext } from '@platform/kit';
import { createMemoryKeyValue } from '@platform/kv';
import { createEmbeddedStore } from '@platform/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishingService } from '../app';
import { FakeDns } from '../testing/fake-dns';
import { longestHostname } from '../testing/longest-hostname';

/**
 * The microservice shape: publishing (with data) in its own process that trusts only signed
 * principals, the gateway proxying to it. Anonymous callers are signed too, so the public route
 * works through the gateway without a session, and nowhere else.
 */
describe('public resolution through a proxying gateway', () => {
  const secret = randomBytes(32).toString('hex');
  const logger = createLogger({ level: 'silent' });
  const kv = createMemoryKeyValue();
  const dns = new FakeDns();
  let dataDir: string;
  let context: ServiceContext;
  let serviceProcess: FastifyInstance;
  let serviceUrl: string;
  let gateway: Gateway;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'publishing-proxied-'));
    const store = await createEmbeddedStore({ dataDir });
    const bus = createInProcessBus();
    context = { dev: true, logger, clock: Date.now, store, bus, kv, mailer: createLogMailer(logger), ...sharedProjectAccess({ store, bus, clock: Date.now, logger }), publicUrl: () => 'http://127.0.0.1' };
    serviceProcess = await createApp({ logger, title: 'publishing process' });
    trustSignedPrincipal(serviceProcess, secret);
    for (const service of [dataService, createPublishingService({ resolveTxt: dns.resolveTxt })]) {
      await serviceProcess.register(service.routes, context);
      if (service.start) stops.push(await service.start(context));
    }
    serviceUrl = await serviceProcess.listen({ host: '127.0.0.1', port: 0 });
    gateway = await buildGateway({
      logger,
      kv,
      clock: Date.now,
      principalSecret: secret,
      sessionCookie: SESSION_COOKIE,
      local: undefined,
      remotes: new Map([
        ['data', serviceUrl],
        ['publishing', serviceUrl],
      ]),
      dependencyProbes: [],
    });
  });

  afterAll(async () => {
    await gateway?.app.close();
    await serviceProcess?.close();
    await Promise.allSettled(stops.map((stop) => stop()));
    await context?.store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, url: string, token?: string, body?: unknown) {
    const response = await gateway.app.inject({ method: method as 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: response.statusCode, body: response.json() };
  }

  it('serves the published version to an anonymous caller via the gateway, under a hostname as long as DNS allows; the service refuses unsigned callers', async () => {
    const hostname = longestHostname('shop');
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await kv.set(sessionKey(hashToken(token)), JSON.stringify({ id: 's1', userId: 'owner', createdAt: now, expiresAt: now + 60_000, platformOwner: true }));
    await context.store.collection('projects').insertOne({ id: 'p1', name: 'P', ownerId: 'owner', aiEnabled: false, createdAt: now, updatedAt: now, revision: 0 });

    const app = await call('POST', '/api/projects/p1/applications', token, { title: { en: 'Shop' }, serverConfiguration: { key: 'server-secret' } });
    expect(app.status).toBe(201);
    expect((await call('POST', `/api/projects/p1/applications/${app.body.id}/publish`, token)).status).toBe(201);
    const domain = await call('POST', '/api/projects/p1/domains', token, { hostname, targetType: 'application', targetId: app.body.id });
    expect(domain.status).toBe(201);
    dns.publish(domain.body.verification.record.name, domain.body.verification.record.value);
    expect((await call('POST', `/api/projects/p1/domains/${domain.body.id}/verify`, token)).body.status).toBe('verified');

    const resolved = await call('GET', `/api/public/domains/${hostname}`);
    expect(resolved).toMatchObject({ status: 200, body: { applicationId: app.body.id, version: { versionNumber: 1 } } });
    expect(JSON.stringify(resolved.body)).not.toContain('server-secret');

    const direct = await fetch(`${serviceUrl}/api/public/domains/${hostname}`);
    expect(direct.status).toBe(401);
    expect(await direct.json()).toMatchObject({ code: 'UNSIGNED_REQUEST' });
  });
});
