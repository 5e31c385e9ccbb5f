import { randomBytes } from 'node:crypto';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalTopology, type LocalTopology } from './local-topology';

/** Longer than the bus's ack wait (30 s), so a redelivered event still counts. */
const REDELIVERY_WAIT_MS = 45_000;

/**
 * Scaling, proven on the microservice shape: two gateways behind nginx, two data replicas (behind
 * nginx too, as the gateways reach them), two audit, two actions and two visitors processes, all on
 * the same MongoDB, NATS and Redis. Whichever process a request or an event lands on, a change is
 * recorded once and acts once, a session and realtime work on every gateway, and each occurrence of
 * the visitor retention job runs on one replica only.
 */
describeWithBackends(['mongo', 'nats', 'redis'], 'the microservice shape scaled out behind a load balancer', (urls) => {
  let topology: LocalTopology;
  let gateways: string[];
  let token: string;
  let projectId: string;
  const typeId = 'orders';
  /** Requests each process logged (one access line per request at LOG_LEVEL=info). */
  const requestsServed = new Map<string, number>();
  /** Per retention occurrence, which visitors replica ran it and which found it taken (their log lines). */
  const retentionOccurrences = new Map<string, { ran: string[]; taken: string[] }>();

  function recordRetentionLine(instance: string, line: string): void {
    const outcome = line.includes('"msg":"visitor retention occurrence ran"') ? 'ran' : line.includes('"msg":"visitor retention occurrence taken by another replica"') ? 'taken' : undefined;
    if (!outcome) return;
    const { occurrence } = JSON.parse(line) as { occurrence: string };
    const seen = retentionOccurrences.get(occurrence) ?? { ran: [], taken: [] };
    seen[outcome].push(instance);
    retentionOccurrences.set(occurrence, seen);
  }

  async function call<T = any>(baseUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Everything a gateway's realtime stream for the project sends until `stop`, as text. */
  async function openStream(gatewayUrl: string): Promise<{ received: () => string; stop: () => void }> {
    const issued = await call<{ token: string }>(gatewayUrl, 'GET', '/api/realtime/token');
    expect(issued.status).toBe(200);
    const abort = new AbortController();
    const response = await fetch(`${gatewayUrl}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(issued.body.token)}`, { signal: abort.signal });
    expect(response.status).toBe(200);
    let text = '';
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    void (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    })().catch(() => undefined);
    await expect.poll(() => text, { timeout: 10_000 }).toContain('event: ready');
    return { received: () => text, stop: () => abort.abort() };
  }

  beforeAll(async () => {
    topology = await startLocalTopology({
      backendUrls: urls,
      replicas: { gateway: 2, data: 2, audit: 2, actions: 2, visitors: 2 },
      extraEnvironment: {
        LOG_LEVEL: 'info',
        MONGO_DATABASE: `scaling_${randomBytes(4).toString('hex')}`,
        // The retention job due every 4 s and checked every 250 ms, so occurrences fall within the test.
        VISITORS_RETENTION_CRON: '*/4 * * * * *',
        VISITORS_RETENTION_CHECK_MS: '250',
      },
      onLine: (instance, line) => {
        if (line.includes('"msg":"request"')) requestsServed.set(instance, (requestsServed.get(instance) ?? 0) + 1);
        if (instance.startsWith('visitors-')) recordRetentionLine(instance, line);
      },
    });
    gateways = [topology.instanceUrls.get('gateway-1')!, topology.instanceUrls.get('gateway-2')!];
    const registered = await call(topology.gatewayUrl, 'POST', '/api/auth/register', { email: `scale-${randomBytes(3).toString('hex')}@example.org`, password: 'scaling password 1' });
    expect(registered.status).toBe(201);
    token = registered.body.token;
    const project = await call(topology.gatewayUrl, 'POST', '/api/projects', { name: 'Scaled out' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    expect((await call(topology.gatewayUrl, 'POST', `/api/projects/${projectId}/types`, { id: typeId, name: 'Orders' })).status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await topology?.stop();
  });

  it('runs two processes of each scaled service and one of the others', () => {
    expect([...topology.processes.keys()].sort()).toEqual(['actions-1', 'actions-2', 'audit-1', 'audit-2', 'data-1', 'data-2', 'gateway-1', 'gateway-2', 'identity', 'publishing', 'visitors-1', 'visitors-2']);
  });

  it('a session made through the load balancer works on each gateway', async () => {
    for (const gateway of gateways) expect((await call(gateway, 'GET', '/api/me')).status).toBe(200);
    expect((await call(gateways[0]!, 'POST', '/api/auth/login', { email: 'nobody@example.org', password: 'wrong password 1' })).status).toBe(401);
  });

  it('writes through both gateways are each recorded once in the audit trail and act once', async () => {
    const action = await call(topology.gatewayUrl, 'POST', `/api/projects/${projectId}/actions`, {
      title: 'Mail each new order',
      triggers: [{ id: 't1', triggerName: 'documentCreated', configuration: { typeId } }],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'orders@example.org', subject: 'Order {{data.document.title}}', text: 'new' } }],
    });
    expect(action.status).toBe(201);
    const created: string[] = [];
    for (let index = 0; index < 8; index++) {
      const written = await call(gateways[index % 2]!, 'POST', `/api/projects/${projectId}/types/${typeId}/data`, { title: `order ${index}` });
      expect(written.status).toBe(201);
      created.push(written.body.id);
    }
    const auditedIds = async () => (await call<{ items: Array<{ entityId: string }> }>(topology.gatewayUrl, 'GET', `/api/projects/${projectId}/audit-trail?typeId=${typeId}&changeType=created&limit=200`)).body.items.map((item) => item.entityId).sort();
    const runTotal = async () => (await call<{ total: number }>(topology.gatewayUrl, 'GET', `/api/projects/${projectId}/actions/${action.body.id}/runs?pageSize=200`)).body.total;
    // nginx spread the writes over both data replicas.
    expect({ 'data-1': (requestsServed.get('data-1') ?? 0) > 0, 'data-2': (requestsServed.get('data-2') ?? 0) > 0 }).toEqual({ 'data-1': true, 'data-2': true });
    // At-least-once delivery: a message whose handler was too slow is redelivered after the bus's
    // 30 s ack wait, so the wait covers one redelivery.
    await expect.poll(auditedIds, { timeout: REDELIVERY_WAIT_MS, interval: 250 }).toEqual([...created].sort());
    await expect.poll(runTotal, { timeout: REDELIVERY_WAIT_MS, interval: 250 }).toBe(created.length);
    // A second consumer delivering late would add entries after the counts first matched.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await auditedIds()).toEqual([...created].sort());
    expect(await runTotal()).toBe(created.length);
  }, 3 * REDELIVERY_WAIT_MS);

  it('a change written through one gateway reaches realtime clients of both', async () => {
    const streams = await Promise.all(gateways.map(openStream));
    try {
      for (const [index, gateway] of gateways.entries()) {
        const written = await call(gateway, 'POST', `/api/projects/${projectId}/types/${typeId}/data`, { title: `live ${index}` });
        expect(written.status).toBe(201);
        for (const stream of streams) await expect.poll(() => stream.received(), { timeout: 10_000 }).toContain(`id: ${typeId}/${written.body.id}/`);
      }
    } finally {
      for (const stream of streams) stream.stop();
    }
  }, 60_000);

  it('each occurrence of the retention job runs on exactly one visitors replica', async () => {
    // Both replicas checked an occurrence once each logged a line for it.
    const checkedByBoth = () => [...retentionOccurrences.values()].filter((seen) => seen.ran.length + seen.taken.length >= 2);
    await expect.poll(() => checkedByBoth().length, { timeout: 15_000, interval: 250 }).toBeGreaterThanOrEqual(2);
    for (const seen of checkedByBoth()) {
      expect(seen.ran).toHaveLength(1);
      expect([...seen.ran, ...seen.taken].sort()).toEqual(['visitors-1', 'visitors-2']);
    }
    // No occurrence ran twice, including those only one replica has reported so far.
    for (const seen of retentionOccurrences.values()) expect(seen.ran.length).toBeLessThanOrEqual(1);
  }, 30_000);
});
