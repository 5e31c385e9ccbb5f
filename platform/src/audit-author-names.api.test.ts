import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/**
 * Authors' display names in the audit trail follow identity's rule, as GET /api/users/{userId}
 * applies it: colleagues (members of one project or of one tenant) see a name its privacy shows
 * them, others see the user id. All-in-one through the gateway.
 */
const { call } = allInOneForTests('audit-author-names-');
const as = succeeding(call);
type Account = { token: string; userId: string };
let bea: Account;
let cy: Account;
let dan: Account;

beforeAll(async () => {
  [bea, cy, dan] = (await Promise.all(['bea', 'cy', 'dan'].map((name) => registerAccount(call, name)))) as [Account, Account, Account];
  await as(cy, 'PUT', '/api/me/profile', { displayName: 'Cy Colleague' });
  await as(dan, 'PUT', '/api/me/profile', { displayName: 'Dan Passer-by' });
});

async function joinThenLeave(projectId: string, who: Account): Promise<void> {
  const invitation = await as(bea, 'POST', `/api/projects/${projectId}/members`, { userId: who.userId });
  await as(who, 'POST', `/api/me/invitations/${invitation.id}/accept`);
  await as(who, 'DELETE', `/api/projects/${projectId}/members/${who.userId}`);
}

describe("authors' names in the audit trail", () => {
  it('shows the name of an author who shares a tenant with the reader, not of one who shares nothing any more', async () => {
    const team = (await as(bea, 'POST', '/api/tenants', { name: 'Studio' })).id;
    const invitation = await as(bea, 'PUT', `/api/tenants/${team}/members/${cy.userId}`, { role: 'member' });
    await as(cy, 'POST', `/api/me/invitations/${invitation.id}/accept`);
    const projectId = (await as(bea, 'POST', '/api/projects', { name: 'Site' })).id;
    // Both join the project and leave it again: only the tenant is left in common with Cy.
    await joinThenLeave(projectId, cy);
    await joinThenLeave(projectId, dan);
    expect((await as(bea, 'GET', `/api/users/${cy.userId}`)).displayName).toBe('Cy Colleague');
    expect((await as(bea, 'GET', `/api/users/${dan.userId}`)).displayName).toBeUndefined();

    let items: any[] = [];
    await vi.waitFor(
      async () => {
        items = (await as(bea, 'GET', `/api/projects/${projectId}/audit-trail?typeId=project.members&changeType=deleted`)).items;
        expect(items).toHaveLength(2);
      },
      { timeout: 10_000 },
    );
    const shown = Object.fromEntries(items.map((item) => [item.userId, [item.userDisplayName, item.entityTitle]]));
    expect(shown).toEqual({ [cy.userId]: ['Cy Colleague', 'Cy Colleague'], [dan.userId]: [dan.userId, dan.userId] });
  });
});
