import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, startMemoryTracing, type ReadableSpan } from '@platform/telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

let dataDir: string;
let platform: RunningPlatform;
let tracing: ReturnType<typeof startMemoryTracing>;
let token: string;
let projectId: string;
let receiver: Server;
/** The receiver is on loopback, which webhooks may reach only when allowed. */
const webhookSettings = { ACTIONS_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', ACTIONS_WEBHOOK_SECRET: 'observability-webhook-key' };
/** What the webhook receiver got: each call's path and headers. */
const hooked: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as any) : text };
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One sample of the Prometheus text, e.g. `platform_http_requests_total{route="...",method="POST",status="201"}`. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function scrape(): Promise<string> {
  const response = await fetch(platform.metricsUrl as string);
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  tracing = startMemoryTracing('platform');
  receiver = createServer((request, response) => {
    hooked.push({ path: request.url ?? '', headers: request.headers });
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  dataDir = await mkdtemp(join(tmpdir(), 'observability-'));
  // The actions service reads its own settings from the environment when it starts.
  Object.assign(process.env, webhookSettings);
  platform = await startPlatform(loadPlatformConfig({ PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  const registered = await fetch(`${platform.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `observer-${Date.now()}@example.org`, password: 'observer password 1' }),
  });
  token = ((await registered.json()) as { token: string }).token;
  projectId = (await call('POST', '/api/projects', { name: 'observed' })).body.id;
  expect((await call('POST', `/api/projects/${projectId}/types`, { id: 'tickets', name: 'tickets' })).status).toBe(201);
  const action = await call('POST', `/api/projects/${projectId}/actions`, {
    title: 'Mail on new ticket',
    triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'tickets' } }],
    blocks: [
      { id: 'mail', blockName: 'send-mail', configuration: { to: 'support@example.org', subject: 'New ticket', text: 'see it' } },
      { id: 'hook', blockName: 'call-webhook', configuration: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tickets?token=not-in-traces` } },
    ],
  });
  expect(action.status).toBe(201);
});

afterAll(async () => {
  for (const name of Object.keys(webhookSettings)) delete process.env[name];
  receiver?.close();
  await platform?.close();
  await tracing?.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

describe('traces (all-in-one)', () => {
  it('follows one POST .../data from the gateway through data and the bus into audit, actions and the realtime notifier', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const created = await call('POST', `/api/projects/${projectId}/types/tickets/data`, { title: 'Printer on fire' }, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(created.status).toBe(201);

    const inTrace = (): ReadableSpan[] => tracing.spans().filter((span) => span.spanContext().traceId === traceId);
    const named = (name: string) => inTrace().find((span) => span.name === name);
    const byId = (id: string | undefined) => inTrace().find((span) => span.spanContext().spanId === id);
    const parentOf = (span: ReadableSpan) => byId(span.parentSpanContext?.spanId);
    // The consumers may finish before the drain and the request end (and with them their spans): wait for every one.
    const waited = ['POST /api/projects/:projectId/types/:typeId/data', 'outbox drain', 'publish platform.docs.created', 'consume audit-trail', 'consume gateway-sync-notifier', 'action run', 'block send-mail', 'block call-webhook', 'POST'];
    await until(() => (waited.every((name) => named(name)) ? true : undefined), 'the request\'s and the consumers\' spans');

    const server = named('POST /api/projects/:projectId/types/:typeId/data') as ReadableSpan;
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(inTrace().filter((span) => span.name.startsWith('store ') && parentOf(span) === server).length).toBeGreaterThan(0);
    const drain = named('outbox drain') as ReadableSpan;
    expect(drain.instrumentationScope.name).toBe('data');
    expect(parentOf(drain)).toBe(server);
    const publish = inTrace().find((span) => span.kind === SpanKind.PRODUCER && parentOf(span) === drain) as ReadableSpan;
    expect(publish.name).toBe('publish platform.docs.created');
    for (const durable of ['audit-trail', 'actions-executor', 'gateway-sync-notifier']) {
      const consume = named(`consume ${durable}`) as ReadableSpan;
      expect(consume.kind).toBe(SpanKind.CONSUMER);
      expect(parentOf(consume)).toBe(publish);
    }
    const run = named('action run') as ReadableSpan;
    expect(run.instrumentationScope.name).toBe('actions');
    expect(parentOf(run)).toBe(named('consume actions-executor'));
    expect(parentOf(named('block send-mail') as ReadableSpan)).toBe(run);
    // The webhook call: a client span inside its block, whose traceparent the receiver got.
    const hookBlock = named('block call-webhook') as ReadableSpan;
    expect(parentOf(hookBlock)).toBe(run);
    const webhookCall = named('POST') as ReadableSpan;
    expect(webhookCall.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(webhookCall)).toBe(hookBlock);
    const port = (receiver.address() as AddressInfo).port;
    expect(webhookCall.attributes).toMatchObject({ 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'server.port': port, 'url.full': `http://127.0.0.1:${port}/tickets`, 'http.response.status_code': 200 });
    const delivery = hooked.find((hook) => hook.headers.traceparent?.includes(traceId));
    expect(delivery?.headers.traceparent).toBe(`00-${traceId}-${webhookCall.spanContext().spanId}-01`);
  });

  it('starts a trace at the gateway when the client sends none', async () => {
    tracing.reset();
    expect((await call('GET', `/api/projects/${projectId}/types/tickets/data`)).status).toBe(200);
    const server = await until(() => tracing.spans().find((span) => span.name === 'GET /api/projects/:projectId/types/:typeId/data'), 'the request span');
    expect(server.parentSpanContext).toBeUndefined();
  });
});

describe('metrics', () => {
  it('counts requests by route template, bus messages and their waits by durable and action runs by status after a known workload', async () => {
    const before = await scrape();
    const route = '/api/projects/:projectId/types/:typeId/data';
    const counters = (text: string) => ({
      created: sample(text, 'platform_http_requests_total', { route, method: 'POST', status: '201' }),
      refused: sample(text, 'platform_http_requests_total', { route, method: 'POST', status: '400' }),
      latency: sample(text, 'platform_http_request_duration_seconds_count', { route, method: 'POST', status: '201' }),
      published: sample(text, 'platform_bus_published_total', { subject: 'platform.docs.created', result: 'stored' }),
      audited: sample(text, 'platform_bus_consumed_total', { durable: 'audit-trail', outcome: 'ack' }),
      waited: sample(text, 'platform_bus_delivery_delay_seconds_count', { durable: 'audit-trail' }),
      runs: sample(text, 'platform_action_runs_total', { status: 'succeeded' }),
      mails: sample(text, 'platform_action_blocks_total', { block: 'send-mail', status: 'succeeded' }),
    });
    const start = counters(before);

    for (const title of ['one', 'two', 'three']) expect((await call('POST', `/api/projects/${projectId}/types/tickets/data`, { title })).status).toBe(201);
    expect((await call('POST', `/api/projects/${projectId}/types/tickets/data`, 'not an object')).status).toBe(400);
    let end = counters(await scrape());
    const deadline = Date.now() + 10_000;
    while ((end.runs - start.runs < 3 || end.audited - start.audited < 3) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      end = counters(await scrape());
    }
    expect({
      created: end.created - start.created,
      refused: end.refused - start.refused,
      latency: end.latency - start.latency,
      published: end.published - start.published,
      audited: end.audited - start.audited,
      waited: end.waited - start.waited,
      runs: end.runs - start.runs,
      mails: end.mails - start.mails,
    }).toEqual({ created: 3, refused: 1, latency: 3, published: 3, audited: 3, waited: 3, runs: 3, mails: 3 });
  });

  it('counts sign-ins refused by the login throttle, open realtime streams and the embedded data on disk', async () => {
    const unlabelled = (text: string, name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? Number.NaN);
    const throttledBefore = unlabelled(await scrape(), 'platform_login_throttled_total');
    const email = `throttled-${Date.now()}@example.org`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const response = await fetch(`${platform.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'wrong password 1' }) });
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    expect(unlabelled(await scrape(), 'platform_login_throttled_total') - throttledBefore).toBe(2);

    const ticket = await call('GET', '/api/realtime/token');
    const abort = new AbortController();
    const stream = await fetch(`${platform.url}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(ticket.body.token)}`, { signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(unlabelled(await scrape(), 'platform_realtime_streams')).toBe(1);
    abort.abort();
    const deadline = Date.now() + 5_000;
    while (unlabelled(await scrape(), 'platform_realtime_streams') !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unlabelled(await scrape(), 'platform_realtime_streams')).toBe(0);

    expect(unlabelled(await scrape(), 'platform_embedded_data_bytes')).toBeGreaterThan(0);
  });

  it('labels no ids: project ids and document ids appear nowhere in the metrics', async () => {
    const created = await call('POST', `/api/projects/${projectId}/types/tickets/data`, { title: 'labelled?' });
    const text = await scrape();
    expect(text).not.toContain(projectId);
    expect(text).not.toContain(created.body.id);
  });

  it('serves /metrics only on its own listener: the public gateway answers 404', async () => {
    const response = await call('GET', '/metrics');
    expect(response.status).toBe(404);
    expect(String(JSON.stringify(response.body))).not.toContain('platform_http_requests_total');
    expect((await fetch(new URL('/api', platform.metricsUrl))).status).toBe(404);
  });
});
