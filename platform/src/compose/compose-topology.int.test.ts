import { randomBytes } from 'node:crypto';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalTopology, type LocalTopology } from './local-topology';

describeWithBackends(['mongo', 'nats', 'redis'], 'the docker-compose topology as local processes', (urls) => {
  let topology: LocalTopology;

  beforeAll(async () => {
    topology = await startLocalTopology({
      backendUrls: urls,
      extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `compose_${randomBytes(4).toString('hex')}` },
    });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  });

  it('reports every service and backend up through the gateway', async () => {
    const response = await fetch(`${topology.gatewayUrl}/api/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; shape: string; services: Record<string, { up: boolean }>; dependencies: Record<string, { up: boolean; kind: string }> };
    expect(body.shape).toBe('microservices');
    expect(Object.keys(body.services).sort()).toEqual(['actions', 'audit', 'data', 'identity', 'publishing', 'visitors']);
    for (const [name, state] of Object.entries(body.services)) expect({ name, up: state.up }).toEqual({ name, up: true });
    expect(body.dependencies.kv).toMatchObject({ up: true, kind: 'redis' });
    expect(body.dependencies.bus).toMatchObject({ up: true, kind: 'nats' });
    expect(body.status).toBe('ok');
  });

  it('proxies a guarded route to its service and answers 401 JSON without a session', async () => {
    const response = await fetch(`${topology.gatewayUrl}/api/me`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('services refuse requests that did not come through the gateway', async () => {
    const direct = await fetch(`${topology.serviceUrls.get('identity')}/api/me`, { headers: { 'x-platform-principal': 'forged.signature' } });
    expect(direct.status).toBe(401);
    expect(await direct.json()).toMatchObject({ code: 'UNSIGNED_REQUEST' });
  });
});
