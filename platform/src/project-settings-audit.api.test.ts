import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/**
 * Changes of a project's own settings in the audit trail, all-in-one through the gateway: who
 * created it, renamed it, turned AI on or off, moved it to another tenant, deleted and restored
 * it; shown to those who may read the project.
 */
const { call } = allInOneForTests('project-settings-audit-');
const as = succeeding(call);
type Account = { token: string; userId: string };
let bea: Account;
let ada: Account;

const SETTINGS = 'project.settings';

beforeAll(async () => {
  [bea, ada] = (await Promise.all(['bea', 'ada'].map((name) => registerAccount(call, name)))) as [Account, Account];
  await as(bea, 'PUT', '/api/me/profile', { displayName: 'Bea Owner' });
});

async function settingsItems(projectId: string, who: Account, count?: number): Promise<any[]> {
  let items: any[] = [];
  await vi.waitFor(
    async () => {
      items = (await as(who, 'GET', `/api/projects/${projectId}/audit-trail?typeId=${SETTINGS}`)).items;
      if (count !== undefined) expect(items).toHaveLength(count);
    },
    { timeout: 10_000 },
  );
  return items;
}

describe("a project's settings in the audit trail", () => {
  it('records its creation, renames, AI switched on and off, a move, a deletion and a restore, each once', async () => {
    const projectId = (await as(bea, 'POST', '/api/projects', { name: 'Draft' })).id;
    const p = `/api/projects/${projectId}`;
    await as(bea, 'PATCH', p, { name: 'Launch' });
    await as(bea, 'PATCH', p, { name: 'Launch' });
    await as(bea, 'PATCH', `${p}/ai-settings`, { aiEnabled: true });
    await as(bea, 'PATCH', `${p}/ai-settings`, { aiEnabled: true });
    await as(bea, 'PATCH', `${p}/ai-settings`, { aiEnabled: false });
    const personal = (await as(bea, 'GET', p)).tenantId;
    const team = (await as(bea, 'POST', '/api/tenants', { name: 'Team' })).id;
    await as(bea, 'POST', `${p}/move`, { tenantId: team });
    await as(bea, 'DELETE', p);
    await as(bea, 'POST', `${p}/restore`);

    const items = await settingsItems(projectId, bea, 7);
    const common = { entityId: projectId, entityTitle: 'Launch', entityTypeId: SETTINGS, entityTypeName: 'Project', userId: bea.userId, userDisplayName: 'Bea Owner' };
    expect(items.map(({ timestamp, revision, ...item }) => item)).toEqual([
      { ...common, changeDescription: 'audit.restored' },
      { ...common, changeDescription: 'audit.deleted' },
      { ...common, changeDescription: 'audit.projectMoved', tenantId: team, previousTenantId: personal },
      { ...common, changeDescription: 'audit.aiDisabled' },
      { ...common, changeDescription: 'audit.aiEnabled' },
      { ...common, changeDescription: 'audit.updated', previousTitle: 'Draft' },
      { ...common, entityTitle: 'Draft', changeDescription: 'audit.created' },
    ]);
    expect(items.at(-1).revision).toBe(0);
    const revisions = items.map((item) => item.revision);
    expect([...revisions].sort((a, b) => b - a)).toEqual(revisions);
  });

  it("records a project passing to the admin who removes its owner from the tenant, with both owners", async () => {
    const team = (await as(bea, 'POST', '/api/tenants', { name: 'Agency' })).id;
    const invitation = await as(bea, 'PUT', `/api/tenants/${team}/members/${ada.userId}`, { role: 'member' });
    await as(ada, 'POST', `/api/me/invitations/${invitation.id}/accept`);
    const projectId = (await as(ada, 'POST', '/api/projects', { name: "Ada's", tenantId: team })).id;
    await as(bea, 'DELETE', `/api/tenants/${team}/members/${ada.userId}`);

    const items = await settingsItems(projectId, bea, 2);
    expect(items[0]).toMatchObject({ changeDescription: 'audit.ownerChanged', entityTitle: "Ada's", userId: bea.userId, ownerId: bea.userId, previousOwnerId: ada.userId });
    expect(items[1]).toMatchObject({ changeDescription: 'audit.created', userId: ada.userId });
    // Her owner membership ended with it.
    await vi.waitFor(async () =>
      expect((await as(bea, 'GET', `/api/projects/${projectId}/audit-trail?typeId=project.members`)).items).toEqual([
        expect.objectContaining({ entityId: ada.userId, changeDescription: 'audit.memberRemoved', userId: bea.userId }),
      ]),
    );
  });

  it("are shown to members who may read the project, and to no one else, counted or not", async () => {
    const guarded = (await as(bea, 'POST', '/api/projects', { name: 'Guarded', access: { read: { permission: 'insiders' } } })).id;
    const invitation = await as(bea, 'POST', `/api/projects/${guarded}/members`, { userId: ada.userId });
    await as(ada, 'POST', `/api/me/invitations/${invitation.id}/accept`);
    expect(await settingsItems(guarded, bea, 1)).toEqual([expect.objectContaining({ changeDescription: 'audit.created', entityTitle: 'Guarded' })]);
    expect((await as(ada, 'GET', `/api/projects/${guarded}/audit-trail?typeId=${SETTINGS}`)).total).toBe(0);
    expect((await as(ada, 'GET', `/api/projects/${guarded}/audit-trail`)).total).toBe(0);
  });
});
