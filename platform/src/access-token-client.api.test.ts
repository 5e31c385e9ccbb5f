import { SyncClient } from '@platform/sync-client';
import { describe, expect, it } from 'vitest';
import { allInOneForTests } from './testing/platforms-on-disk';

const { platform, call } = allInOneForTests('access-token-client-');

describe('a program on a personal access token', () => {
  it('syncs through the SDK, realtime included, as its user, until the token is revoked', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, { email: `script-${Date.now()}@example.org`, password: 'script owner password' });
    const session = registered.body.token as string;
    const project = (await call('POST', '/api/projects', session, { name: 'exports' })).body.id as string;
    expect((await call('POST', `/api/projects/${project}/types`, session, { id: 'reports', name: 'Reports' })).status).toBe(201);
    const made = await call('POST', '/api/me/tokens', session, { name: 'report writer' });
    expect(made.status).toBe(201);

    const client = new SyncClient({ baseUrl: platform().url, projectId: project, token: made.body.token, collections: [{ typeId: 'reports', realtime: true }], pollIntervalMs: 60_000 });
    const events: string[] = [];
    client.on('unauthorized', () => events.push('unauthorized'));
    try {
      await client.start();
      await expect.poll(() => client.realtimeStatus, { timeout: 5_000 }).toBe('live');
      const report = await client.collection('reports').insert({ title: 'November' });
      await client.awaitInSync();
      const stored = await call('GET', `/api/projects/${project}/types/reports/data/${report.id}`, session);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ title: 'November' });
      const changes = await call('GET', `/api/projects/${project}/types/reports/data/${report.id}/changes`, session);
      expect(changes.body.items.map((change: { userId: string }) => change.userId)).toEqual([registered.body.user.id]);

      expect((await call('DELETE', `/api/me/tokens/${made.body.id}`, session)).status).toBe(204);
      await client.collection('reports').insert({ title: 'December' });
      await expect.poll(() => events, { timeout: 5_000 }).toEqual(['unauthorized']);
      expect(client.isUnauthorized).toBe(true);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('on a read-only token, pulls what its user may read; a change made offline is refused for good, saying why', async () => {
    const registered = await call('POST', '/api/auth/register', undefined, { email: `reader-${Date.now()}@example.org`, password: 'reader owner password' });
    const session = registered.body.token as string;
    const project = (await call('POST', '/api/projects', session, { name: 'dashboards' })).body.id as string;
    expect((await call('POST', `/api/projects/${project}/types`, session, { id: 'figures', name: 'Figures' })).status).toBe(201);
    expect((await call('POST', `/api/projects/${project}/types/figures/data`, session, { id: 'sales', value: 42 })).status).toBe(201);
    const made = await call('POST', '/api/me/tokens', session, { name: 'dashboard', access: 'read' });

    const client = new SyncClient({ baseUrl: platform().url, projectId: project, token: made.body.token, collections: [{ typeId: 'figures' }], pollIntervalMs: 60_000 });
    try {
      await client.start();
      await client.awaitInSync();
      expect(client.collection('figures').get('sales')).toMatchObject({ value: 42 });
      const local = await client.collection('figures').insert({ value: 7 });
      await expect.poll(() => client.collection('figures').conflict(local.id)?.reason, { timeout: 5_000 }).toBe('rejected');
      expect(client.collection('figures').conflict(local.id)?.error).toMatchObject({ status: 403, code: 'GATEWAY_TOKEN_READ_ONLY' });
      expect((await call('GET', `/api/projects/${project}/types/figures/data/${local.id}`, session)).status).toBe(404);
    } finally {
      await client.close();
    }
  }, 30_000);
});
