import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNatsBus } from '@platform/bus';
import { dataService } from '@platform/data';
import { startTestGateway } from '@platform/gateway/testing';
import { createMemoryKeyValue } from '@platform/kv';
import { createEmbeddedStore } from '@platform/storage';
import { describeWithBackend } from '@platform/testkit';
import { expect, it } from 'vitest';
import { SyncClient } from './index';

describeWithBackend('nats', 'realtime across gateway replicas through NATS', ({ url }) => {
  it('a write through one replica reaches a client subscribed on another, with its own NATS connection', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'realtime-nats-'));
    const store = await createEmbeddedStore({ dataDir });
    const kv = createMemoryKeyValue();
    // One deployment's namespace, so other test files' gateways on this NATS server share no durable with it.
    const namespace = `realtime_${randomBytes(6).toString('hex')}`;
    const [busA, busB] = await Promise.all([createNatsBus({ url, namespace, name: 'replica-a' }), createNatsBus({ url, namespace, name: 'replica-b' })]);
    // Replica A hosts the data service; replica B is a gateway alone, as in the microservice shape.
    const replicaA = await startTestGateway({ services: [dataService], realtime: true, store, kv, bus: busA });
    const replicaB = await startTestGateway({ services: [], realtime: true, store, kv, bus: busB });
    const client = (token: string, projectId: string, typeId: string) =>
      new SyncClient({ baseUrl: replicaA.url, projectId, token, collections: [{ typeId, realtime: true }], heartbeatMs: 60_000 });
    try {
      const [owner, alice] = [await replicaA.signIn('owner'), await replicaA.signIn('alice')];
      const projectId = await replicaA.seedProject({ ownerId: 'owner', members: [{ userId: 'alice' }] });
      const typeId = (await replicaA.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Tasks' } })).body.id as string;
      const issued = await replicaB.call('GET', '/api/realtime/token', { token: alice });
      expect(issued.status).toBe(200);
      const abort = new AbortController();
      const stream = await fetch(`${replicaB.url}/api/realtime/projects/${projectId}/sync?token=${encodeURIComponent(issued.body.token)}`, { signal: abort.signal });
      let text = '';
      void (async () => {
        const decoder = new TextDecoder();
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
      })().catch(() => undefined);
      await expect.poll(() => text, { timeout: 5_000 }).toContain('event: ready');

      const writer = client(owner, projectId, typeId);
      const task = await writer.collection(typeId).insert({ title: 'across NATS' });
      await writer.sync();
      await expect.poll(() => text, { timeout: 5_000 }).toContain(`"entityId":"${task.id}"`);
      abort.abort();
      await writer.close();
    } finally {
      await replicaB.close();
      await replicaA.close();
      await Promise.all([busA.close(), busB.close(), store.close()]);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
