import { TRAIL_COLLECTION } from '@platform/audit';
import { membershipChangeMessageId, membershipChangeSubject, type MembershipChange } from '@platform/contracts';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/**
 * Membership changes in the audit trail, all-in-one through the gateway: who added a member with
 * which permissions, who changed them, who removed a member or left; shown to those who may list
 * the members, with names by the users' privacy as they are now.
 */
const { platform, call } = allInOneForTests('membership-audit-');
const as = succeeding(call);
type Account = { token: string; userId: string };
let bea: Account;
let ada: Account;
let cy: Account;
let dee: Account;
let eve: Account;

const MEMBERS = 'project.members';

beforeAll(async () => {
  [bea, ada, cy, dee, eve] = (await Promise.all(['bea', 'ada', 'cy', 'dee', 'eve'].map((name) => registerAccount(call, name)))) as [Account, Account, Account, Account, Account];
  await as(bea, 'PUT', '/api/me/profile', { displayName: 'Bea Owner' });
  await as(ada, 'PUT', '/api/me/profile', { displayName: 'Ada Member' });
  await as(dee, 'PUT', '/api/me/profile', { displayName: 'Dee Gone' });
});

async function join(projectId: string, who: Account, permissions: string[] = [], by = bea): Promise<void> {
  const invitation = await as(by, 'POST', `/api/projects/${projectId}/members`, { userId: who.userId, permissions });
  await as(who, 'POST', `/api/me/invitations/${invitation.id}/accept`);
}

async function membershipItems(projectId: string, who: Account, query = ''): Promise<any[]> {
  return (await as(who, 'GET', `/api/projects/${projectId}/audit-trail?typeId=${MEMBERS}${query}`)).items;
}

async function settledAt(projectId: string, count: number): Promise<any[]> {
  let items: any[] = [];
  await vi.waitFor(
    async () => {
      items = await membershipItems(projectId, bea);
      expect(items).toHaveLength(count);
    },
    { timeout: 10_000 },
  );
  return items;
}

describe('membership changes in the audit trail', () => {
  let projectId: string;
  let scoped: (name: string) => string;

  beforeAll(async () => {
    projectId = (await as(bea, 'POST', '/api/projects', { name: 'Team' })).id;
    scoped = (name) => `${projectId}::${name}`;
    await join(projectId, ada, ['editors']);
    await as(bea, 'POST', `/api/projects/${projectId}/members`, { userId: ada.userId, permissions: ['editors', 'reviewers'] });
    // The same permissions again change nothing, so they are not a change of the trail either.
    await as(bea, 'POST', `/api/projects/${projectId}/members`, { userId: ada.userId, permissions: ['reviewers', 'editors'] });
    await join(projectId, cy);
    await as(cy, 'DELETE', `/api/projects/${projectId}/members/${cy.userId}`);
    await join(projectId, dee, ['editors']);
    await as(bea, 'DELETE', `/api/projects/${projectId}/members/${dee.userId}`);
  });

  it('records who added, changed and removed whom, with the permissions before and after, newest first', async () => {
    const items = await settledAt(projectId, 6);
    const common = { entityTypeId: MEMBERS, entityTypeName: 'Member', revision: 0 };
    // Names as they are now, by their privacy (`projects`): Dee and Cy share no project with Bea any more.
    expect(items.map(({ timestamp, ...item }) => item)).toEqual([
      { ...common, entityId: dee.userId, entityTitle: dee.userId, changeDescription: 'audit.memberRemoved', userId: bea.userId, userDisplayName: 'Bea Owner', permissions: [], previousPermissions: [scoped('editors')] },
      { ...common, entityId: dee.userId, entityTitle: dee.userId, changeDescription: 'audit.memberAdded', userId: bea.userId, userDisplayName: 'Bea Owner', permissions: [scoped('editors')] },
      { ...common, entityId: cy.userId, entityTitle: cy.userId, changeDescription: 'audit.memberRemoved', userId: cy.userId, userDisplayName: cy.userId, permissions: [], previousPermissions: [] },
      { ...common, entityId: cy.userId, entityTitle: cy.userId, changeDescription: 'audit.memberAdded', userId: bea.userId, userDisplayName: 'Bea Owner', permissions: [] },
      {
        ...common,
        entityId: ada.userId,
        entityTitle: 'Ada Member',
        changeDescription: 'audit.memberPermissionsChanged',
        userId: bea.userId,
        userDisplayName: 'Bea Owner',
        permissions: [scoped('editors'), scoped('reviewers')],
        previousPermissions: [scoped('editors')],
      },
      { ...common, entityId: ada.userId, entityTitle: 'Ada Member', changeDescription: 'audit.memberAdded', userId: bea.userId, userDisplayName: 'Bea Owner', permissions: [scoped('editors')] },
    ]);
    const times = items.map((item) => item.timestamp);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The member itself sees its own name (and its own changes: members may read the project).
    expect((await membershipItems(projectId, ada)).find((item) => item.entityId === ada.userId)).toMatchObject({ entityTitle: 'Ada Member' });
  });

  it('filters them by change type and author like any other item, and exports them with their permissions', async () => {
    await settledAt(projectId, 6);
    expect((await membershipItems(projectId, bea, '&changeType=deleted')).map((item) => item.entityId)).toEqual([dee.userId, cy.userId]);
    expect((await membershipItems(projectId, bea, `&userId=${cy.userId}`)).map((item) => item.changeDescription)).toEqual(['audit.memberRemoved']);
    const exported = await call('GET', `/api/projects/${projectId}/audit-trail/export?typeId=${MEMBERS}&changeType=updated`, bea.token);
    expect(exported.status).toBe(200);
    const rows = parse(exported.text.replace(/^\uFEFF/, ''), { columns: true });
    expect(rows).toEqual([
      expect.objectContaining({ entityId: ada.userId, changeDescription: 'audit.memberPermissionsChanged', permissions: `${scoped('editors')} ${scoped('reviewers')}`, previousPermissions: scoped('editors') }),
    ]);
  });

  it('refuses a type filter that is neither a type id nor the members, and changes nothing', async () => {
    const refused = await call('GET', `/api/projects/${projectId}/audit-trail?typeId=project.other`, bea.token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('typeId');
  });

  it("shows a member's name as it is now and by its privacy: a name made private leaves every item", async () => {
    await as(ada, 'PUT', '/api/me/profile', { displayName: 'Ada Renamed' });
    const titles = async () => (await membershipItems(projectId, bea)).filter((item) => item.entityId === ada.userId).map((item) => item.entityTitle);
    expect(await titles()).toEqual(['Ada Renamed', 'Ada Renamed']);
    await as(ada, 'PUT', '/api/me/profile', { displayName: { value: 'Ada Renamed', privacy: 'private' } });
    expect(await titles()).toEqual([ada.userId, ada.userId]);
  });

  it("keeps the members' changes from members the project's read rule leaves out, as it keeps the members list", async () => {
    const guarded = (await as(bea, 'POST', '/api/projects', { name: 'Guarded', access: { read: { permission: 'insiders' } } })).id;
    await join(guarded, eve);
    await join(guarded, ada, ['insiders']);
    await settledAt(guarded, 2);
    expect((await call('GET', `/api/projects/${guarded}/members`, eve.token)).status).toBe(403);
    expect(await membershipItems(guarded, eve)).toEqual([]);
    expect((await as(eve, 'GET', `/api/projects/${guarded}/audit-trail`)).total).toBe(0);
    expect((await membershipItems(guarded, ada)).map((item) => item.entityId)).toEqual([ada.userId, eve.userId]);
  });

  it('records one item for a change the bus delivers twice', async () => {
    const change: MembershipChange = { id: 'repeated-change', projectId, userId: eve.userId, change: 'added', permissions: [], changedBy: bea.userId, timestamp: Date.now() };
    const bus = platform().context!.bus;
    // Past the bus's own de-duplication: two message ids, one change; then a change of its own,
    // which the one consumer of the durable handles after the repeat.
    await bus.publish(membershipChangeSubject(projectId), change, { msgId: membershipChangeMessageId(change.id) });
    await bus.publish(membershipChangeSubject(projectId), change, { msgId: `${membershipChangeMessageId(change.id)}:again` });
    const after: MembershipChange = { ...change, id: 'after-the-repeat', userId: cy.userId };
    await bus.publish(membershipChangeSubject(projectId), after, { msgId: membershipChangeMessageId(after.id) });
    await settledAt(projectId, 8);
    const stored = await platform().context!.store.collection(TRAIL_COLLECTION).find({ projectId, entityId: eve.userId });
    expect(stored).toHaveLength(1);
  });
});

describe("the successor's membership when a project passes to it", () => {
  /** Fay's project in a team Gil administers, with Gil a member of it with a permission. */
  async function handoverCase(): Promise<{ fay: Account; gil: Account; team: string; projectId: string }> {
    const [fay, gil] = (await Promise.all(['fay', 'gil'].map((name) => registerAccount(call, name)))) as [Account, Account];
    const team = (await as(gil, 'POST', '/api/tenants', { name: 'Agency' })).id;
    const invitation = await as(gil, 'PUT', `/api/tenants/${team}/members/${fay.userId}`, { role: 'member' });
    await as(fay, 'POST', `/api/me/invitations/${invitation.id}/accept`);
    const projectId = (await as(fay, 'POST', '/api/projects', { name: "Fay's", tenantId: team })).id;
    await join(projectId, gil, ['editors'], fay);
    return { fay, gil, team, projectId };
  }

  async function settled(projectId: string, who: Account, count: number): Promise<any[]> {
    let items: any[] = [];
    await vi.waitFor(
      async () => {
        items = await membershipItems(projectId, who);
        expect(items).toHaveLength(count);
      },
      { timeout: 10_000 },
    );
    return items;
  }

  it("records the permissions its owner role replaced when the admin who removes the owner from the tenant takes the project", async () => {
    const { fay, gil, team, projectId } = await handoverCase();
    await as(gil, 'DELETE', `/api/tenants/${team}/members/${fay.userId}`);
    expect((await as(gil, 'GET', `/api/projects/${projectId}`)).ownerId).toBe(gil.userId);
    const items = await settled(projectId, gil, 3);
    expect(items.map((item) => [item.entityId, item.changeDescription, item.userId, item.permissions, item.previousPermissions])).toEqual(
      expect.arrayContaining([
        [gil.userId, 'audit.memberPermissionsChanged', gil.userId, [], [`${projectId}::editors`]],
        [fay.userId, 'audit.memberRemoved', gil.userId, [], []],
        [gil.userId, 'audit.memberAdded', fay.userId, [`${projectId}::editors`], undefined],
      ]),
    );
  });

  it("records them too when the project passes to the admin because its owner deleted the account", async () => {
    const { fay, gil, projectId } = await handoverCase();
    expect((await call('DELETE', '/api/me', fay.token, { password: 'fay password 1' })).status).toBe(200);
    const items = await settled(projectId, gil, 3);
    expect(items.map((item) => [item.entityId, item.changeDescription, item.userId, item.permissions, item.previousPermissions])).toEqual(
      expect.arrayContaining([[gil.userId, 'audit.memberPermissionsChanged', fay.userId, [], [`${projectId}::editors`]]]),
    );
  });
});
