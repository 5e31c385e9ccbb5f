import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/**
 * Saved actions in the audit trail, all-in-one through the gateway: each create, replacement and
 * deletion of an action is an item with its title at that revision and who saved it, guarded by
 * the action's read rule as it stands now.
 */
const { call } = allInOneForTests('action-changes-audit-');
const as = succeeding(call);
type Account = { token: string; userId: string };
let bea: Account;
let ada: Account;
let projectId: string;

const ACTIONS = 'project.actions';
const trigger = { id: 't', triggerName: 'documentCreated', configuration: { typeId: 'notes' } };

beforeAll(async () => {
  [bea, ada] = (await Promise.all(['bea', 'ada'].map((name) => registerAccount(call, name)))) as [Account, Account];
  await as(bea, 'PUT', '/api/me/profile', { displayName: 'Bea Owner' });
  projectId = (await as(bea, 'POST', '/api/projects', { name: 'Automations' })).id;
  const invitation = await as(bea, 'POST', `/api/projects/${projectId}/members`, { userId: ada.userId });
  await as(ada, 'POST', `/api/me/invitations/${invitation.id}/accept`);
  await as(bea, 'POST', `/api/projects/${projectId}/types`, { id: 'notes', name: 'Notes' });
});

async function actionItems(who: Account, query = ''): Promise<any[]> {
  return (await as(who, 'GET', `/api/projects/${projectId}/audit-trail?typeId=${ACTIONS}${query}`)).items;
}

async function settled(count: number): Promise<any[]> {
  let items: any[] = [];
  await vi.waitFor(
    async () => {
      items = await actionItems(bea);
      expect(items).toHaveLength(count);
    },
    { timeout: 10_000 },
  );
  return items;
}

describe('saved actions in the audit trail', () => {
  it('records each create, replacement and deletion with the title at that revision and who saved it', async () => {
    const created = await as(ada, 'POST', `/api/projects/${projectId}/actions`, { title: 'Notify', triggers: [trigger], blocks: [] });
    await as(bea, 'PUT', `/api/projects/${projectId}/actions/${created.id}`, { title: 'Notify the team', triggers: [trigger], blocks: [] });
    await as(bea, 'DELETE', `/api/projects/${projectId}/actions/${created.id}`);
    const items = await settled(3);
    const common = { entityId: created.id, entityTypeId: ACTIONS, entityTypeName: 'Action' };
    expect(items.map(({ timestamp, ...item }) => item)).toEqual([
      { ...common, revision: 2, entityTitle: 'Notify the team', changeDescription: 'audit.deleted', userId: bea.userId, userDisplayName: 'Bea Owner' },
      { ...common, revision: 1, entityTitle: 'Notify the team', changeDescription: 'audit.updated', userId: bea.userId, userDisplayName: 'Bea Owner' },
      { ...common, revision: 0, entityTitle: 'Notify', changeDescription: 'audit.created', userId: ada.userId, userDisplayName: expect.any(String) },
    ]);
    expect((await actionItems(bea, '&changeType=created')).map((item) => item.revision)).toEqual([0]);
  });

  it("follows the action's read rule as it stands now, for its earlier items too", async () => {
    const open = await as(bea, 'POST', `/api/projects/${projectId}/actions`, { title: 'Open to members', triggers: [trigger], blocks: [] });
    await settled(4);
    expect((await actionItems(ada)).map((item) => item.entityId)).toContain(open.id);

    await as(bea, 'PUT', `/api/projects/${projectId}/actions/${open.id}`, { title: 'Owner only', triggers: [trigger], blocks: [], access: { read: { userIds: [bea.userId] } } });
    await settled(5);
    expect((await call('GET', `/api/projects/${projectId}/actions/${open.id}`, ada.token)).status).toBe(404);
    expect((await actionItems(ada)).map((item) => item.entityId)).not.toContain(open.id);
    expect((await actionItems(bea)).filter((item) => item.entityId === open.id).map((item) => item.entityTitle)).toEqual(['Owner only', 'Open to members']);
  });

  it('refuses a type filter of a record kind the trail does not keep, and changes nothing', async () => {
    const refused = await call('GET', `/api/projects/${projectId}/audit-trail?typeId=project.tokens`, bea.token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('typeId');
  });
});
