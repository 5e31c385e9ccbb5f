import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMemoryTracing, type ReadableSpan } from '@platform/telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';

/**
 * A webhook URL's user name, password and query are the receiver's credentials: no span may carry
 * them, including the exception events of a call that failed (undici refuses a URL with a user
 * name in it, and its error quotes the URL whole).
 */
const webhookSettings = { ACTIONS_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', ACTIONS_WEBHOOK_SECRET: 'trace-secrets-webhook-key' };
const SECRETS = ['hook-user-7f3', 'hook-pass-9c1', 'query-key-4d2'];

let dataDir: string;
let platform: RunningPlatform;
let tracing: ReturnType<typeof startMemoryTracing>;
let receiver: Server;
let token: string;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  tracing = startMemoryTracing('platform');
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  dataDir = await mkdtemp(join(tmpdir(), 'trace-webhook-secrets-'));
  Object.assign(process.env, webhookSettings);
  platform = await startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  const registered = await fetch(`${platform.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `tracer-${Date.now()}@example.org`, password: 'tracer password 1' }),
  });
  token = ((await registered.json()) as { token: string }).token;
});

afterAll(async () => {
  for (const name of Object.keys(webhookSettings)) delete process.env[name];
  receiver?.close();
  await platform?.close();
  await tracing?.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

/** Every text a span exports: its name, attributes and events' attributes. */
function exportedText(span: ReadableSpan): string {
  return JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })) });
}

describe('webhook calls in traces', () => {
  it('show a failed call to a URL with a user name, password and query without them', async () => {
    const projectId = (await call('POST', '/api/projects', { name: 'hooks' })).body.id as string;
    expect((await call('POST', `/api/projects/${projectId}/types`, { id: 'orders', name: 'orders' })).status).toBe(201);
    const port = (receiver.address() as AddressInfo).port;
    const url = `http://${SECRETS[0]}:${SECRETS[1]}@127.0.0.1:${port}/orders?key=${SECRETS[2]}`;
    const action = await call('POST', `/api/projects/${projectId}/actions`, {
      title: 'Hook with credentials',
      triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'orders' } }],
      blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url, retries: 0 } }],
    });
    expect(action.status).toBe(201);
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4736';
    expect((await call('POST', `/api/projects/${projectId}/types/orders/data`, { title: 'one' }, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` })).status).toBe(201);

    const inTrace = () => tracing.spans().filter((span) => span.spanContext().traceId === traceId);
    const deadline = Date.now() + 10_000;
    while (!inTrace().some((span) => span.name === 'action run')) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the action run span');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const spans = inTrace();
    const client = spans.find((span) => span.name === 'POST' && span.attributes['url.full'] !== undefined);
    const block = spans.find((span) => span.name === 'block call-webhook');
    for (const span of spans) for (const secret of SECRETS) expect(exportedText(span)).not.toContain(secret);
    // The call failed and says so, with the URL it was given shown without its secrets.
    expect(client?.events.map((event) => event.name)).toEqual(['exception']);
    expect(String(block?.events[0]?.attributes?.['exception.message'])).toContain(`http://127.0.0.1:${port}/orders`);
  });
});
