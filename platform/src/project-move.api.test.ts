import { beforeAll, describe, expect, it } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

/**
 * Moving a project hands it to the target tenant's admins, who pass every check of it. A member
 * whom the project's delete rule names is no superuser, so it may not move the project into its
 * own personal tenant and become one there.
 */
const { call } = allInOneForTests('project-move-');
const as = succeeding(call);
let owner: { token: string; userId: string };
let closer: { token: string; userId: string };
let projectId: string;

beforeAll(async () => {
  owner = await registerAccount(call, 'owner');
  closer = await registerAccount(call, 'closer');
  projectId = (await as(owner, 'POST', '/api/projects', { name: 'Vaulted', access: { update: { userIds: [] }, delete: { permission: 'closers' } } })).id;
  const p = `/api/projects/${projectId}`;
  await as(closer, 'POST', `/api/me/invitations/${(await as(owner, 'POST', `${p}/members`, { userId: closer.userId, permissions: ['closers'] })).id}/accept`);
  await as(owner, 'POST', `${p}/types`, { id: 'vault', name: 'Vault', access: { read: { permission: `${projectId}::readers` } } });
  await as(owner, 'POST', `${p}/types/vault/data`, { id: 'gold', title: 'secret gold' });
});

/** What the closer reads of the vault: the document itself and a full pull. */
async function closerReads() {
  const document = await call('GET', `/api/projects/${projectId}/types/vault/data/gold`, closer.token);
  const pull = await call('GET', `/api/projects/${projectId}/types/vault/data?updatedAt=0`, closer.token);
  return { document: document.status, pull: pull.status, sawGold: `${document.text}${pull.text}`.includes('secret gold') };
}

describe('moving a project', () => {
  it('is refused to a member the delete rule names: the project stays where it was and its documents stay hidden', async () => {
    const before = await closerReads();
    expect(before.sawGold).toBe(false);
    const personal = `personal-${closer.userId}`;
    expect((await as(closer, 'GET', '/api/tenants')).items.map((tenant: { id: string }) => tenant.id)).toContain(personal);

    const moved = await call('POST', `/api/projects/${projectId}/move`, closer.token, { tenantId: personal });
    expect({ status: moved.status, code: moved.body.code }).toEqual({ status: 403, code: 'IDENTITY_FORBIDDEN' });
    expect((await as(owner, 'GET', `/api/projects/${projectId}`)).tenantId).toBe(`personal-${owner.userId}`);
    expect(await closerReads()).toEqual(before);
  });

  it('is open to the owner, into a tenant the owner administers', async () => {
    const team = (await as(owner, 'POST', '/api/tenants', { name: 'Team' })).id;
    const moved = await call('POST', `/api/projects/${projectId}/move`, owner.token, { tenantId: team });
    expect({ status: moved.status, tenantId: moved.body.tenantId }).toEqual({ status: 200, tenantId: team });
    expect((await as(owner, 'GET', `/api/projects/${projectId}/types/vault/data/gold`)).title).toBe('secret gold');
  });
});
