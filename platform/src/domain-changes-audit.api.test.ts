import { beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAccount } from './testing/platform-http';
import { allInOneForTests } from './testing/platforms-on-disk';
import { succeeding } from './testing/populated-project';

// Domains verify without a DNS lookup (development only), so a test can verify one.
vi.stubEnv('PUBLISHING_DOMAIN_VERIFICATION', 'off');

/**
 * Domain changes in the audit trail, all-in-one through the gateway: who added a domain, renamed
 * it, pointed it at an application (pinned to a version or following the latest publish),
 * verified and removed it, each with where it pointed before.
 */
const { call } = allInOneForTests('domain-changes-audit-');
const as = succeeding(call);
type Account = { token: string; userId: string };
let bea: Account;
let ada: Account;
let projectId: string;

const DOMAINS = 'project.domains';

beforeAll(async () => {
  [bea, ada] = (await Promise.all(['bea', 'ada'].map((name) => registerAccount(call, name)))) as [Account, Account];
  await as(bea, 'PUT', '/api/me/profile', { displayName: 'Bea Owner' });
  projectId = (await as(bea, 'POST', '/api/projects', { name: 'Shop' })).id;
  const invitation = await as(bea, 'POST', `/api/projects/${projectId}/members`, { userId: ada.userId });
  await as(ada, 'POST', `/api/me/invitations/${invitation.id}/accept`);
});

async function domainItems(who: Account, query = ''): Promise<any[]> {
  return (await as(who, 'GET', `/api/projects/${projectId}/audit-trail?typeId=${DOMAINS}${query}`)).items;
}

describe('domain changes in the audit trail', () => {
  it('records each change with the hostname, where the domain points after it and before, newest first; repeats of the same are none', async () => {
    const p = `/api/projects/${projectId}`;
    const application = await as(bea, 'POST', `${p}/applications`, { title: { en: 'Storefront' }, routes: [] });
    const first = await as(bea, 'POST', `${p}/applications/${application.id}/publish`);
    const domain = await as(bea, 'POST', `${p}/domains`, { hostname: 'shop.example.com' });
    await as(bea, 'PATCH', `${p}/domains/${domain.id}`, { hostname: 'store.example.com' });
    // The same hostname again: no change to record.
    await as(bea, 'PATCH', `${p}/domains/${domain.id}`, { hostname: 'store.example.com' });
    await as(bea, 'POST', `${p}/domains/${domain.id}/verify`);
    await as(bea, 'POST', `${p}/domains/${domain.id}/assign`, { targetType: 'application', targetId: application.id });
    await as(bea, 'POST', `${p}/domains/${domain.id}/assign`, { targetType: 'application', targetId: application.id, targetVersionId: first.id });
    await as(bea, 'DELETE', `${p}/domains/${domain.id}`);

    let items: any[] = [];
    await vi.waitFor(
      async () => {
        items = await domainItems(ada);
        expect(items).toHaveLength(6);
      },
      { timeout: 10_000 },
    );
    const version = first.id;
    const common = { entityId: domain.id, entityTypeId: DOMAINS, entityTypeName: 'Domain', userId: bea.userId, userDisplayName: 'Bea Owner' };
    const pinned = { applicationId: application.id, versionId: version, versionNumber: 1 };
    const latest = { applicationId: application.id, versionId: null };
    expect(items.map(({ timestamp, revision, ...item }) => item)).toEqual([
      { ...common, entityTitle: 'store.example.com', changeDescription: 'audit.deleted', target: pinned },
      { ...common, entityTitle: 'store.example.com', changeDescription: 'audit.domainAssigned', target: pinned, previousTarget: latest },
      { ...common, entityTitle: 'store.example.com', changeDescription: 'audit.domainAssigned', target: latest },
      { ...common, entityTitle: 'store.example.com', changeDescription: 'audit.domainVerified' },
      { ...common, entityTitle: 'store.example.com', changeDescription: 'audit.updated', previousTitle: 'shop.example.com' },
      { ...common, entityTitle: 'shop.example.com', changeDescription: 'audit.created' },
    ]);
    const revisions = items.map((item) => item.revision);
    expect(new Set(revisions).size).toBe(6);
    expect([...revisions].sort((a, b) => b - a)).toEqual(revisions);

    const exported = await call('GET', `${p}/audit-trail/export?typeId=${DOMAINS}&changeType=updated`, bea.token);
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(`${application.id}@${version},${application.id}@latest`);
  });
});
