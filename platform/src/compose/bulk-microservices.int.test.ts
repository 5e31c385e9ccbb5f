import { randomBytes } from 'node:crypto';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { httpCaller, registerAccount } from '../testing/platform-http';
import { startLocalTopology, type LocalTopology } from './local-topology';

/**
 * Issue 33's bulk writes in the microservice shape: through the gateway to the data process on
 * MongoDB, each item with the single route's answer, and each write once in the audit process's
 * trail (over NATS) and under the same RLS as a single write.
 */
describeWithBackends(['mongo', 'nats', 'redis'], 'bulk writes across service processes', (urls) => {
  let topology: LocalTopology;
  const call = httpCaller(() => topology.gatewayUrl);

  beforeAll(async () => {
    topology = await startLocalTopology({ backendUrls: urls, extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `bulk_${randomBytes(4).toString('hex')}` } });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  });

  it('answers each item as its single route would, records every write once in the audit trail, and keeps RLS per item', async () => {
    const owner = await registerAccount(call, 'owner');
    const member = await registerAccount(call, 'member');
    const projectId = (await call('POST', '/api/projects', owner.token, { name: 'Bulk across services' })).body.id as string;
    const invitation = await call('POST', `/api/projects/${projectId}/members`, owner.token, { userId: member.userId, permissions: [] });
    expect((await call('POST', `/api/me/invitations/${invitation.body.id}/accept`, member.token)).status).toBe(200);
    expect((await call('POST', `/api/projects/${projectId}/types`, owner.token, { id: 'notes', name: 'Notes' })).status).toBe(201);
    const data = `/api/projects/${projectId}/types/notes/data`;
    expect((await call('POST', data, owner.token, { id: 'open', title: 'anyone may change' })).status).toBe(201);
    expect((await call('POST', data, owner.token, { id: 'guarded', title: 'owner only', access: { update: { userIds: [owner.userId] } } })).status).toBe(201);

    const answer = await call('POST', `${data}/bulk`, member.token, {
      operations: [
        { op: 'create', fields: { id: 'made-1', title: 'one' } },
        { op: 'create', fields: { id: 'made-1', title: 'again' } },
        { op: 'patch', id: 'open', modifier: { $set: { title: 'changed by the member' } }, baseRevision: 0 },
        { op: 'patch', id: 'guarded', modifier: { $set: { title: 'not allowed' } }, baseRevision: 0 },
        { op: 'patch', id: 'open', modifier: { $bogus: { title: 'x' } }, baseRevision: 1 },
        { op: 'patch', id: 'never-existed', modifier: { $set: { title: 'x' } }, baseRevision: 0 },
        { op: 'delete', id: 'made-1' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result: { status: number; body: { code?: string } }) => [result.status, result.body.code])).toEqual([
      [201, undefined],
      [409, 'DATA_DUPLICATE_ID'],
      [200, undefined],
      [403, 'DATA_FORBIDDEN'],
      [400, 'DATA_INVALID_MODIFIER'],
      [404, 'DATA_ENTITY_NOT_FOUND'],
      [200, undefined],
    ]);
    expect((await call('GET', `${data}/open`, owner.token)).body).toMatchObject({ title: 'changed by the member', revision: 1 });
    expect((await call('GET', `${data}/guarded`, owner.token)).body).toMatchObject({ title: 'owner only', revision: 0 });

    // The trail (another process, fed over NATS) holds each write once: the owner's creation of `open`,
    // then the member's bulk create, patch and delete.
    const expected = ['audit.created made-1', 'audit.created open', 'audit.deleted made-1', 'audit.updated open'];
    await vi.waitFor(
      async () => {
        const items = (await call('GET', `/api/projects/${projectId}/audit-trail?limit=100`, owner.token)).body.items as Array<{ entityId: string; changeDescription: string }>;
        const writes = items.filter((item) => item.entityId === 'made-1' || item.entityId === 'open');
        expect(writes.map((item) => `${item.changeDescription} ${item.entityId}`).sort()).toEqual(expected);
      },
      { timeout: 20_000, interval: 200 },
    );
  });
});
