import { TENANT_MEMBERS_COLLECTION } from '@platform/contracts';
import { readRendezvous, temporaryEmbeddedStore, type ReadRendezvous, type TemporaryStore } from '@platform/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sessions } from '../auth/sessions';
import { promoteOwner } from '../promotion/promote-owner';
import { startIdentityPlatform, type IdentityTestPlatform } from '../testing/identity-test-platform';
import { USERS_COLLECTION } from '../users/user-record';
import { UserRepository } from '../users/user-repository';

/**
 * The platform keeps an owner and a shared tenant an admin when the requests that could take the
 * last one cross: account deletions, and platform owners' demotions. The two requests' reads that
 * decide meet (readRendezvous), so each decides on what was stored before the other wrote, on
 * every run. Until 2026-12-07 both went through: the platform, or the tenant, was left without.
 */
const PASSWORD = 'correct horse battery';
type Account = { token: string; user: { id: string }; email: string };

let temporary: TemporaryStore;
let rendezvous: ReadRendezvous;
let platform: IdentityTestPlatform;
let accounts = 0;

beforeAll(async () => {
  temporary = await temporaryEmbeddedStore('role-keeping-races');
  rendezvous = readRendezvous(temporary.store);
  platform = await startIdentityPlatform({ store: rendezvous.store });
});
afterAll(async () => {
  await platform?.close();
  await temporary?.dispose();
});

async function account(name: string): Promise<Account> {
  const email = `${name}-${(accounts += 1)}@example.org`;
  return { ...(await platform.register(email)), email };
}

async function owner(name: string): Promise<Account> {
  const created = await account(name);
  await promoteOwner({ users: new UserRepository(platform.context.store, Date.now), sessions: new Sessions(platform.context.kv, Date.now) }, created.email);
  return created;
}

/** Makes `pair` the platform's only owners: every other owner is demoted by the first of them. */
async function onlyOwners(pair: Account[]): Promise<void> {
  const users = (await platform.call('GET', '/api/admin/users?limit=200', { token: pair[0]!.token })).body.items as Array<{ id: string; platformOwner: boolean }>;
  for (const user of users.filter((listed) => listed.platformOwner && !pair.some((kept) => kept.user.id === listed.id))) {
    expect((await platform.call('PATCH', `/api/admin/users/${user.id}`, { token: pair[0]!.token, body: { platformOwner: false } })).status).toBe(200);
  }
}

const deleteOwnAccount = (who: Account) => platform.call('DELETE', '/api/me', { token: who.token, body: { password: PASSWORD } });
const me = (who: Account) => platform.call('GET', '/api/me', { token: who.token });
/** The two requests' counts of platform owners (a deletion's plan, a demotion's check) meet. */
const ownerCountsMeet = () => rendezvous.next(2, (collection, filter) => collection === USERS_COLLECTION && filter.platformOwner === true);

describe('two admins of a tenant deleting their accounts at once', () => {
  it('are not both let go: one is refused with the tenant as its blocker and keeps every role it had, and the tenant keeps an admin', async () => {
    await owner('steady-owner');
    for (let round = 0; round < 3; round += 1) {
      // Ada is a platform owner too: her refused deletion gives that back as well.
      const [ada, bea, crew] = [await owner('ada'), await account('bea'), await account('crew')];
      const tenantId = (await platform.call('POST', '/api/tenants', { token: ada.token, body: { name: 'Harbour' } })).body.id as string;
      await platform.addTenantMember(tenantId, ada.token, bea, 'admin');
      await platform.addTenantMember(tenantId, ada.token, crew, 'member');
      // Each deletion's plan reads the tenant's members before either changes anything.
      rendezvous.next(2, (collection, filter) => collection === TENANT_MEMBERS_COLLECTION && filter.tenantId === tenantId && Object.keys(filter).length === 1);
      const answers = await Promise.all([deleteOwnAccount(ada), deleteOwnAccount(bea)]);

      const members = (await platform.call('GET', `/api/tenants/${tenantId}/members`, { token: crew.token })).body.items as Array<{ userId: string; role: string }>;
      expect(members.filter((member) => member.role === 'admin').length, `round ${round}: ${JSON.stringify(members)}`).toBeGreaterThanOrEqual(1);
      expect(answers.filter((answer) => answer.status === 409).length, `round ${round}`).toBeGreaterThanOrEqual(1);
      for (const [index, answer] of answers.entries()) {
        const who = [ada, bea][index]!;
        expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 200) {
          expect((await me(who)).status).toBe(401);
          continue;
        }
        expect(answer.body).toMatchObject({ code: 'IDENTITY_ACCOUNT_STILL_NEEDED', details: { blockers: [{ reason: 'last-tenant-admin', tenantId, tenantName: 'Harbour' }] } });
        expect(members.find((member) => member.userId === who.user.id)?.role).toBe('admin');
        expect((await me(who)).body.platformOwner).toBe(who === ada);
      }
    }
  }, 30_000);
});

describe('platform owners giving up ownership at once', () => {
  /** Two new owners, and nobody else owner. */
  async function twoOwners(): Promise<[Account, Account]> {
    const pair: [Account, Account] = [await owner('ona'), await owner('oli')];
    await onlyOwners(pair);
    return pair;
  }

  /** Who of `pair` is still a platform owner (a deleted account is none). */
  async function stillOwners(pair: Account[]): Promise<Account[]> {
    const owners: Account[] = [];
    for (const who of pair) if ((await me(who)).body.platformOwner === true) owners.push(who);
    return owners;
  }

  it('two deleting their accounts: one is refused as the last owner, and stays owner', async () => {
    for (let round = 0; round < 3; round += 1) {
      const pair = await twoOwners();
      ownerCountsMeet();
      const answers = await Promise.all(pair.map(deleteOwnAccount));
      const survivors = await stillOwners(pair);
      expect(survivors.length, `round ${round}: ${JSON.stringify(answers.map((answer) => answer.body))}`).toBeGreaterThanOrEqual(1);
      for (const [index, answer] of answers.entries()) {
        expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 409) expect(answer.body).toMatchObject({ code: 'IDENTITY_ACCOUNT_STILL_NEEDED', details: { blockers: [{ reason: 'last-platform-owner' }] } });
        expect(survivors.includes(pair[index]!)).toBe(answer.status === 409);
      }
    }
  }, 30_000);

  it('one deleting its account while the other gives up ownership: one of them is refused', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [leaving, resigning] = await twoOwners();
      ownerCountsMeet();
      const [deletion, demotion] = await Promise.all([
        deleteOwnAccount(leaving),
        platform.call('PATCH', `/api/admin/users/${resigning.user.id}`, { token: resigning.token, body: { platformOwner: false } }),
      ]);
      const survivors = await stillOwners([leaving, resigning]);
      expect(survivors.length, `round ${round}: ${JSON.stringify([deletion.body, demotion.body])}`).toBeGreaterThanOrEqual(1);
      expect([deletion.status, demotion.status]).toContain(409);
      if (deletion.status === 409) expect(deletion.body).toMatchObject({ code: 'IDENTITY_ACCOUNT_STILL_NEEDED', details: { blockers: [{ reason: 'last-platform-owner' }] } });
      if (demotion.status === 409) expect(demotion.body.code).toBe('IDENTITY_LAST_PLATFORM_OWNER');
      if (demotion.status === 200) expect(demotion.body.platformOwner).toBe(false);
    }
  }, 30_000);

  it('two demoting each other: one is refused as the last owner, and every 200 says what is stored', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [ona, oli] = await twoOwners();
      ownerCountsMeet();
      const answers = await Promise.all([
        platform.call('PATCH', `/api/admin/users/${oli.user.id}`, { token: ona.token, body: { platformOwner: false } }),
        platform.call('PATCH', `/api/admin/users/${ona.user.id}`, { token: oli.token, body: { platformOwner: false } }),
      ]);
      const survivors = await stillOwners([ona, oli]);
      expect(survivors.length, `round ${round}: ${JSON.stringify(answers.map((answer) => answer.body))}`).toBeGreaterThanOrEqual(1);
      for (const [index, answer] of answers.entries()) {
        const target = [oli, ona][index]!;
        expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 409) expect(answer.body.code).toBe('IDENTITY_LAST_PLATFORM_OWNER');
        expect(survivors.includes(target)).toBe(answer.status === 409);
      }
      // The owner left can still do what owners do.
      expect((await platform.call('GET', '/api/admin/users', { token: survivors[0]!.token })).status).toBe(200);
    }
  }, 30_000);
});
