import { TENANT_MEMBERS_COLLECTION, tenantMemberId } from '@platform/contracts';
import { temporaryEmbeddedStore } from '@platform/storage/testing';
import { describe, expect, it } from 'vitest';
import { TenantRepository } from './tenant-repository';

describe('TenantRepository members', () => {
  it('changes roles only of existing members, keeps the last admin, and of admins demoting each other at once keeps one', async () => {
    const temporary = await temporaryEmbeddedStore('tenant-repository');
    try {
      const tenants = new TenantRepository(temporary.store, () => 1_000);
      const tenant = await tenants.create('Team', 'ada');
      await tenants.addMember(tenant.id, 'bob', 'admin');
      await tenants.addMember(tenant.id, 'cy', 'member');
      expect(await tenants.changeRole(tenant.id, 'cy', 'member')).toEqual({ member: expect.objectContaining({ userId: 'cy', role: 'member' }) });
      expect(await tenants.changeRole(tenant.id, 'bob', 'member')).toEqual({ member: expect.objectContaining({ userId: 'bob', role: 'member' }) });
      expect(await tenants.changeRole(tenant.id, 'ada', 'member')).toBe('last-admin');
      expect(await tenants.membership(tenant.id, 'ada')).toMatchObject({ role: 'admin' });
      // Nobody is added by a role change.
      expect(await tenants.changeRole(tenant.id, 'dee', 'admin')).toBe('gone');
      expect(await tenants.membership(tenant.id, 'dee')).toBeNull();
      // Joining again changes no role: an admin stays admin.
      expect(await tenants.addMember(tenant.id, 'ada', 'member')).toMatchObject({ created: false, member: { role: 'admin' } });

      for (let round = 0; round < 20; round += 1) {
        expect(await tenants.changeRole(tenant.id, 'bob', 'admin')).toEqual({ member: expect.objectContaining({ role: 'admin' }) });
        const outcomes = await Promise.all([tenants.changeRole(tenant.id, 'ada', 'member'), tenants.changeRole(tenant.id, 'bob', 'member')]);
        expect(outcomes.filter((outcome) => typeof outcome === 'object').length).toBeLessThanOrEqual(1);
        expect(await tenants.adminCount(tenant.id)).toBeGreaterThanOrEqual(1);
        await tenants.changeRole(tenant.id, 'ada', 'admin');
      }
    } finally {
      await temporary.dispose();
    }
  });

  it('counts an admin being demoted as gone until the demotion ends, and a mark left by a stopped process for nothing after its lease', async () => {
    const temporary = await temporaryEmbeddedStore('tenant-repository-mark');
    try {
      let now = 1_000;
      const tenants = new TenantRepository(temporary.store, () => now);
      const tenant = await tenants.create('Team', 'ada');
      await tenants.addMember(tenant.id, 'bob', 'admin');
      const members = temporary.store.collection(TENANT_MEMBERS_COLLECTION);
      // Bob's demotion stopped halfway: his mark is there, his role still admin.
      await members.updateOne({ id: tenantMemberId(tenant.id, 'bob') }, { $set: { demoting: { token: 'stopped', at: now } } });
      expect(await tenants.membership(tenant.id, 'bob')).toEqual({ id: tenantMemberId(tenant.id, 'bob'), tenantId: tenant.id, userId: 'bob', role: 'admin', createdAt: 1_000 });
      // Ada is not demoted while Bob might be (within the lease, after a wait for it: busy).
      expect(await tenants.changeRole(tenant.id, 'ada', 'member')).toBe('busy');
      expect(await tenants.membership(tenant.id, 'ada')).toMatchObject({ role: 'admin' });
      now += 10_001;
      expect(await tenants.changeRole(tenant.id, 'ada', 'member')).toEqual({ member: expect.objectContaining({ role: 'member' }) });
      expect(await tenants.changeRole(tenant.id, 'bob', 'member')).toBe('last-admin');
      expect(await members.findById(tenantMemberId(tenant.id, 'bob'))).not.toHaveProperty('demoting');
    } finally {
      await temporary.dispose();
    }
  }, 10_000);
});
