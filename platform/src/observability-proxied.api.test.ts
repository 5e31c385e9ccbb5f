import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, startMemoryTracing, type ReadableSpan } from '@platform/telemetry/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

describeWithBackend('redis', 'traces across the proxy hop (a gateway process and a services process)', ({ url: redisUrl }) => {
  let dataDir: string;
  let services: RunningPlatform;
  let gateway: RunningPlatform;
  let tracing: ReturnType<typeof startMemoryTracing>;

  beforeAll(async () => {
    tracing = startMemoryTracing('platform');
    dataDir = await mkdtemp(join(tmpdir(), 'observability-proxied-'));
    const shared = { PORT: '0', LOG_LEVEL: 'silent', REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `observability-${randomBytes(4).toString('hex')}:`, PRINCIPAL_SECRET: randomBytes(32).toString('hex') };
    services = await startPlatform(loadPlatformConfig({ ...shared, SERVICES: 'identity,data,audit,publishing,actions,visitors', DATA_DIR: join(dataDir, 'services') }));
    const urls = Object.fromEntries(['IDENTITY_URL', 'DATA_URL', 'AUDIT_URL', 'PUBLISHING_URL', 'ACTIONS_URL', 'VISITORS_URL'].map((name) => [name, services.url]));
    gateway = await startPlatform(loadPlatformConfig({ ...shared, ...urls, SERVICES: 'gateway', DATA_DIR: join(dataDir, 'gateway') }));
  });

  afterAll(async () => {
    await gateway?.close();
    await services?.close();
    await tracing?.shutdown();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it("makes no trace of the gateway's refresh of the services' API documents (at its start, then every 30 s)", () => {
    // The services process served /api/openapi.json to the gateway as it started, traced like any request but for this.
    expect(tracing.spans().filter((span) => span.name.includes('/api/openapi.json')).map((span) => span.name)).toEqual([]);
  });

  it('a POST .../data is one trace: gateway span, the data service span under it, then outbox, bus, audit and actions', async () => {
    const token = (await call('POST', '/api/auth/register', undefined, { email: `hop-${Date.now()}@example.org`, password: 'hop password 1' })).body.token as string;
    const projectId = (await call('POST', '/api/projects', token, { name: 'hop' })).body.id as string;
    expect((await call('POST', `/api/projects/${projectId}/types`, token, { id: 'tickets', name: 'tickets' })).status).toBe(201);
    const action = await call('POST', `/api/projects/${projectId}/actions`, token, {
      title: 'Mail on new ticket',
      triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'tickets' } }],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'support@example.org', subject: 'New ticket', text: 'see it' } }],
    });
    expect(action.status).toBe(201);

    const traceId = randomBytes(16).toString('hex');
    const created = await call('POST', `/api/projects/${projectId}/types/tickets/data`, token, { title: 'across' }, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` });
    expect(created.status).toBe(201);

    const inTrace = (): ReadableSpan[] => tracing.spans().filter((span) => span.spanContext().traceId === traceId);
    const named = (name: string) => inTrace().find((span) => span.name === name);
    const parentOf = (span: ReadableSpan | undefined) => inTrace().find((candidate) => candidate.spanContext().spanId === span?.parentSpanContext?.spanId);
    // A span is recorded when it ends, and a consumer's span ends after its handler's: wait for every span read below.
    const serviceRoute = 'POST /api/projects/:projectId/types/:typeId/data';
    const awaited = [serviceRoute, 'outbox drain', 'consume audit-trail', 'consume actions-executor', 'action run', 'block send-mail'];
    await expect.poll(() => awaited.every((name) => named(name)) && inTrace().some((span) => span.kind === SpanKind.PRODUCER), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => Boolean(parentOf(named(serviceRoute))), { timeout: 10_000 }).toBe(true);

    const serviceSpan = named(serviceRoute);
    const gatewaySpan = parentOf(serviceSpan);
    expect(gatewaySpan?.kind).toBe(SpanKind.SERVER);
    // Named after the service's route, not the proxy prefix that forwarded it (.../types/*), as in the all-in-one.
    expect(gatewaySpan?.name).toBe(serviceRoute);
    expect(gatewaySpan?.attributes['http.route']).toBe('/api/projects/:projectId/types/:typeId/data');
    const drain = named('outbox drain');
    expect(parentOf(drain)).toBe(serviceSpan);
    const publish = inTrace().find((span) => span.kind === SpanKind.PRODUCER);
    expect(parentOf(publish)).toBe(drain);
    expect(parentOf(named('consume audit-trail'))).toBe(publish);
    expect(parentOf(parentOf(named('block send-mail')))).toBe(named('consume actions-executor'));
  });

  it("makes no trace of a health probe (the gateway's monitor's, an orchestrator's) unless a caller's traceparent covers it", async () => {
    tracing.reset();
    expect((await fetch(`${gateway.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/api/health/data`)).status).toBe(200);
    expect((await fetch(`${services.url}/api/health`)).status).toBe(200);
    const traceId = randomBytes(16).toString('hex');
    expect((await fetch(`${gateway.url}/api/health/data`, { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } })).status).toBe(200);
    // The followed probe: the gateway's span and the service's under it.
    const followed = () => tracing.spans().filter((span) => span.spanContext().traceId === traceId);
    await expect.poll(() => followed().map((span) => span.name).sort(), { timeout: 10_000 }).toEqual(['GET /api/health', 'GET /api/health/data']);
    // Nothing else: no trace of the untraced probes above, nor of the monitor's every 2 s.
    expect(tracing.spans().filter((span) => span.spanContext().traceId !== traceId).map((span) => span.name)).toEqual([]);
  });
});
