import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMongoStore, type DocumentStore } from '@platform/storage';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';

/**
 * Concurrent changes of tenant membership through the gateway, on the MongoDB-compatible server
 * (the embedded store runs one write at a time, so these interleavings never happen there): a
 * tenant keeps an admin, every answer says what is stored, and a removed member stays removed.
 */
type Account = { token: string; user: { id: string } };

describeWithBackend('mongo', 'tenant membership under concurrent changes (MongoDB)', ({ url }) => {
  let store: DocumentStore;
  let platform: IdentityTestPlatform;
  let ada: Account;
  let cy: Account;
  let bob: Account;

  beforeAll(async () => {
    store = await createMongoStore({ url, database: `identity_races_${randomUUID().slice(0, 8)}` });
    platform = await startIdentityPlatform({ store });
    [ada, cy, bob] = await Promise.all([platform.register('ada@example.org'), platform.register('cy@example.org'), platform.register('bob@example.org')]);
  });
  afterAll(async () => {
    await platform?.close();
    await store?.close();
  });

  const member = (tenantId: string, userId: string) => `/api/tenants/${tenantId}/members/${userId}`;
  const put = (who: Account, tenantId: string, userId: string, role: 'admin' | 'member') => platform.call('PUT', member(tenantId, userId), { token: who.token, body: { role } });

  /** The stored roles, read as the caller who is still a member. */
  async function roles(tenantId: string, who: Account[]): Promise<Map<string, string>> {
    for (const account of who) {
      const listed = await platform.call('GET', `/api/tenants/${tenantId}/members`, { token: account.token });
      if (listed.status === 200) return new Map(listed.body.items.map((item: { userId: string; role: string }) => [item.userId, item.role]));
    }
    throw new Error('nobody can list the members');
  }

  async function tenantOf(admins: Account[], members: Account[] = []): Promise<string> {
    const [first, ...others] = admins as [Account, ...Account[]];
    const tenantId = (await platform.call('POST', '/api/tenants', { token: first.token, body: { name: 'Team' } })).body.id as string;
    for (const other of others) await platform.addTenantMember(tenantId, first.token, other, 'admin');
    for (const other of members) await platform.addTenantMember(tenantId, first.token, other, 'member');
    return tenantId;
  }

  it('keeps an admin when two admins demote each other over and over, and every 200 says the stored role', async () => {
    for (let round = 0; round < 8; round += 1) {
      const tenantId = await tenantOf([ada, cy]);
      const requests = [0, 1, 2].flatMap(() => [
        { target: cy, answer: put(ada, tenantId, cy.user.id, 'member') },
        { target: ada, answer: put(cy, tenantId, ada.user.id, 'member') },
      ]);
      const answers = await Promise.all(requests.map(async ({ target, answer }) => ({ target, response: await answer })));
      const stored = await roles(tenantId, [ada, cy]);
      expect([...stored.values()].filter((role) => role === 'admin').length, `round ${round}: ${JSON.stringify([...stored])}`).toBeGreaterThanOrEqual(1);
      for (const { target, response } of answers) {
        expect([200, 403, 409], JSON.stringify(response.body)).toContain(response.status);
        if (response.status === 200) expect({ answered: response.body.role, stored: stored.get(target.user.id) }).toEqual({ answered: 'member', stored: 'member' });
        if (response.status === 409) expect(response.body.code).toBe('IDENTITY_LAST_TENANT_ADMIN');
        if (response.status === 403) expect(response.body.code).toBe('IDENTITY_TENANT_ADMIN_ONLY');
      }
      // The admin left can still do what admins do.
      const admin = stored.get(ada.user.id) === 'admin' ? ada : cy;
      expect((await platform.call('PATCH', `/api/tenants/${tenantId}`, { token: admin.token, body: { name: 'Still run' } })).status).toBe(200);
    }
  }, 20_000);

  it("refuses the sole admin's double-clicked demotion of itself both times, and it stays admin", async () => {
    for (let round = 0; round < 10; round += 1) {
      const tenantId = await tenantOf([ada], [bob]);
      const answers = await Promise.all([put(ada, tenantId, ada.user.id, 'member'), put(ada, tenantId, ada.user.id, 'member')]);
      expect(answers.map((answer) => [answer.status, answer.body.code ?? answer.body.role]), `round ${round}`).toEqual([
        [409, 'IDENTITY_LAST_TENANT_ADMIN'],
        [409, 'IDENTITY_LAST_TENANT_ADMIN'],
      ]);
      expect((await roles(tenantId, [ada])).get(ada.user.id)).toBe('admin');
    }
  }, 20_000);

  it('keeps a removed member removed while role changes for it cross the removal: each answers 200 or 404, never 500', async () => {
    for (let round = 0; round < 8; round += 1) {
      const tenantId = await tenantOf([ada], [bob]);
      const removal = platform.call('DELETE', member(tenantId, bob.user.id), { token: ada.token });
      const changes = [0, 1, 2, 3, 4].map(async (index) => {
        await sleep(index * 3);
        return put(ada, tenantId, bob.user.id, 'member');
      });
      expect((await removal).status).toBe(204);
      for (const answer of await Promise.all(changes)) {
        // 202 only for a change sent after the removal was answered: then it is a new invitation.
        expect([200, 202, 404], `round ${round}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
        if (answer.status === 200) expect(answer.body).toMatchObject({ userId: bob.user.id, role: 'member' });
        if (answer.status === 404) expect(answer.body.code).toBe('IDENTITY_USER_NOT_FOUND');
      }
      expect((await roles(tenantId, [ada])).has(bob.user.id), `round ${round}`).toBe(false);
      expect((await platform.call('GET', `/api/tenants/${tenantId}`, { token: bob.token })).status).toBe(404);
    }
  }, 20_000);
});
