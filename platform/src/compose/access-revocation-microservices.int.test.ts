import { randomBytes } from 'node:crypto';
import { describeWithBackends } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpCaller, registerAccount } from '../testing/platform-http';
import { startLocalTopology, type LocalTopology } from './local-topology';

/**
 * Issue 24 in the microservice shape: identity announces a removal over NATS and the data and
 * audit processes forget the member's cached standing on receipt. Cached standing is kept for a
 * minute here (PROJECT_ACCESS_CACHE_MS), so only the notice can end access within the bound.
 * And the project's own records (docs/audit.md) travel from identity, actions and publishing
 * through their outboxes and NATS to the audit process.
 */
describeWithBackends(['mongo', 'nats', 'redis'], 'access revocation and project records across service processes', (urls) => {
  let topology: LocalTopology;

  const call = httpCaller(() => topology.gatewayUrl);

  beforeAll(async () => {
    topology = await startLocalTopology({
      backendUrls: urls,
      extraEnvironment: { LOG_LEVEL: 'warn', MONGO_DATABASE: `revocation_${randomBytes(4).toString('hex')}`, PROJECT_ACCESS_CACHE_MS: '60000' },
    });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
  });

  it('a removed member is refused by the data and audit services within a second, though their caches would keep it for a minute', async () => {
    const owner = await registerAccount(call, 'owner');
    const member = await registerAccount(call, 'member');
    const projectId = (await call('POST', '/api/projects', owner.token, { name: 'Revocation across services' })).body.id as string;
    const invitation = await call('POST', `/api/projects/${projectId}/members`, owner.token, { userId: member.userId, permissions: [] });
    expect(invitation.status).toBe(202);
    expect((await call('POST', `/api/me/invitations/${invitation.body.id}/accept`, member.token)).status).toBe(200);
    expect((await call('POST', `/api/projects/${projectId}/types`, owner.token, { id: 'notes', name: 'Notes' })).status).toBe(201);
    expect((await call('POST', `/api/projects/${projectId}/types/notes/data`, owner.token, { id: 'n1', title: 'shared' })).status).toBe(201);
    const paths = [`/api/projects/${projectId}/types/notes/data/n1`, `/api/projects/${projectId}/audit-trail?limit=1`];
    // Both services now hold the member's standing in their caches.
    for (const path of paths) expect((await call('GET', path, member.token)).status).toBe(200);

    expect((await call('DELETE', `/api/projects/${projectId}/members/${member.userId}`, owner.token)).status).toBe(204);
    const removedAt = performance.now();
    const successes: number[] = [];
    for (let n = 0; performance.now() - removedAt < 1_500; n += 1) {
      const started = performance.now();
      if ((await call('GET', paths[n % paths.length] as string, member.token)).status === 200) successes.push(started - removedAt);
    }
    // Without the notice every request here would succeed for a minute.
    expect(successes.filter((lag) => lag >= 1_000)).toEqual([]);
    for (const path of paths) expect((await call('GET', path, member.token)).status).toBe(404);
  });

  it("the project's own records reach the audit process's trail over NATS: settings and memberships from identity, actions, domains from publishing", async () => {
    const owner = await registerAccount(call, 'recorder');
    const member = await registerAccount(call, 'joiner');
    const projectId = (await call('POST', '/api/projects', owner.token, { name: 'Records across services' })).body.id as string;
    const p = `/api/projects/${projectId}`;
    const invitation = await call('POST', `${p}/members`, owner.token, { userId: member.userId, permissions: ['editors'] });
    expect((await call('POST', `/api/me/invitations/${invitation.body.id}/accept`, member.token)).status).toBe(200);
    expect((await call('PATCH', `${p}/ai-settings`, owner.token, { aiEnabled: true })).status).toBe(200);
    expect((await call('POST', `${p}/actions`, owner.token, { title: 'Notify', triggers: [{ id: 't', triggerName: 'documentCreated' }], blocks: [] })).status).toBe(201);
    expect((await call('POST', `${p}/domains`, owner.token, { hostname: `records-${randomBytes(3).toString('hex')}.example.com` })).status).toBe(201);

    const described = async () => ((await call('GET', `${p}/audit-trail`, member.token)).body.items as Array<{ entityTypeId: string; changeDescription: string }>).map((item) => `${item.entityTypeId} ${item.changeDescription}`);
    await expect
      .poll(described, { timeout: 15_000 })
      .toEqual(['project.domains audit.created', 'project.actions audit.created', 'project.settings audit.aiEnabled', 'project.members audit.memberAdded', 'project.settings audit.created']);
  });
});
