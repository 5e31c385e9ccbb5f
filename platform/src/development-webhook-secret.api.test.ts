import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceNames } from '@platform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig } from './config';
import { startPlatform, type RunningPlatform } from './host';
import { resolveDevelopmentWebhookSecret, WEBHOOK_SECRET_FILE } from './principal-secret';
import { httpCaller, type HttpCall } from './testing/platform-http';

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const call = (platform: RunningPlatform, ...request: Parameters<HttpCall>) => httpCaller(() => platform.url)(...request);

/** What a receiver does (docs/actions.md, Verifying a webhook), with node:crypto alone. */
function verifies(delivery: Delivery, key: string, projectId: string): boolean {
  const expected = `sha256=${createHmac('sha256', key).update(`${delivery.headers['x-platform-timestamp']}.${projectId}.${delivery.body}`).digest('hex')}`;
  return delivery.headers['x-platform-project-id'] === projectId && delivery.headers['x-platform-signature'] === expected;
}

describe('a development all-in-one without ACTIONS_WEBHOOK_SECRET', () => {
  const saved = { secret: process.env.ACTIONS_WEBHOOK_SECRET, networks: process.env.ACTIONS_WEBHOOK_ALLOWED_NETWORKS };
  const deliveries: Delivery[] = [];
  let receiver: Server;
  let hookUrl: string;
  let dataDir: string;
  let platform: RunningPlatform | undefined;

  const start = () => startPlatform(loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));

  beforeAll(async () => {
    // The actions service reads its settings from the environment: a local receiver, and no secret.
    delete process.env.ACTIONS_WEBHOOK_SECRET;
    process.env.ACTIONS_WEBHOOK_ALLOWED_NETWORKS = '127.0.0.0/8,::1/128';
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    dataDir = await mkdtemp(join(tmpdir(), 'development-webhook-secret-'));
  });

  afterAll(async () => {
    await platform?.close();
    receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
    if (saved.secret === undefined) delete process.env.ACTIONS_WEBHOOK_SECRET;
    else process.env.ACTIONS_WEBHOOK_SECRET = saved.secret;
    if (saved.networks === undefined) delete process.env.ACTIONS_WEBHOOK_ALLOWED_NETWORKS;
    else process.env.ACTIONS_WEBHOOK_ALLOWED_NETWORKS = saved.networks;
  });

  /** Creates a document and waits for the delivery its action makes. */
  async function delivered(running: RunningPlatform, token: string, projectId: string, n: number): Promise<Delivery> {
    const before = deliveries.length;
    expect((await call(running, 'POST', `/api/projects/${projectId}/types/orders/data`, token, { n })).status).toBe(201);
    await expect.poll(() => deliveries.length, { timeout: 15_000 }).toBe(before + 1);
    return deliveries[before]!;
  }

  it('signs webhooks and lists the webhookKey with a secret it keeps in DATA_DIR, the same after a restart', async () => {
    platform = await start();
    const registered = await call(platform, 'POST', '/api/auth/register', undefined, { email: `hooks-${Date.now()}@example.org`, password: 'hooks password 1' });
    expect(registered.status).toBe(201);
    const token = registered.body.token as string;
    const project = await call(platform, 'POST', '/api/projects', token, { name: 'Hooks' });
    const projectId = project.body.id as string;
    expect((await call(platform, 'POST', `/api/projects/${projectId}/types`, token, { id: 'orders', name: 'Orders' })).status).toBe(201);
    const action = await call(platform, 'POST', `/api/projects/${projectId}/actions`, token, {
      title: 'Forward orders',
      triggers: [{ id: 't1', triggerName: 'documentCreated', configuration: { typeId: 'orders' } }],
      blocks: [{ id: 'notify', blockName: 'call-webhook', configuration: { url: hookUrl } }],
    });
    expect(action.status).toBe(201);

    const listed = await call(platform, 'GET', `/api/projects/${projectId}/actions`, token);
    expect(listed.body.webhookKey).toMatch(/^[0-9a-f]{64}$/);
    const key = listed.body.webhookKey as string;
    expect(verifies(await delivered(platform, token, projectId, 1), key, projectId)).toBe(true);
    const runs = await call(platform, 'GET', `/api/projects/${projectId}/actions/${action.body.id}/runs`, token);
    expect(runs.body.items[0]).toMatchObject({ status: 'succeeded' });
    expect((await stat(join(dataDir, WEBHOOK_SECRET_FILE))).mode & 0o777).toBe(0o600);

    await platform.close();
    platform = await start();
    expect((await call(platform, 'GET', `/api/projects/${projectId}/actions`, token)).body.webhookKey).toBe(key);
    expect(verifies(await delivered(platform, token, projectId, 2), key, projectId)).toBe(true);
  }, 60_000);

  it('leaves production as it was: no secret, no key', async () => {
    const production = loadPlatformConfig({ PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', PRINCIPAL_SECRET: 'p'.repeat(32) });
    const silent = { info: () => undefined } as never;
    expect(await resolveDevelopmentWebhookSecret(production, serviceNames, {}, silent)).toBeUndefined();
    expect(await resolveDevelopmentWebhookSecret({ ...production, dev: true }, serviceNames, { ACTIONS_WEBHOOK_SECRET: 'chosen-by-the-operator' }, silent)).toBeUndefined();
  });
});
