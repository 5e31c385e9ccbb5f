import { temporaryEmbeddedStore } from '@platform/storage/testing';
import { describe, expect, it } from 'vitest';
import { TenantRepository } from './tenant-repository';

describe('TenantRepository admins', () => {
  it('demotes an admin while another stays, refuses the last, and of admins demoting each other at once keeps one', async () => {
    const temporary = await temporaryEmbeddedStore('tenant-repository');
    try {
      const tenants = new TenantRepository(temporary.store, () => 1_000);
      const tenant = await tenants.create('Team', 'ada');
      await tenants.putMembership(tenant.id, 'bob', 'admin');
      await tenants.putMembership(tenant.id, 'cy', 'member');
      expect(await tenants.demoteAdmin(tenant.id, 'cy')).toBe('not-admin');
      expect(await tenants.demoteAdmin(tenant.id, 'bob')).toBe('demoted');
      expect(await tenants.demoteAdmin(tenant.id, 'ada')).toBe('last-admin');
      expect(await tenants.membership(tenant.id, 'ada')).toMatchObject({ role: 'admin' });

      for (let round = 0; round < 20; round += 1) {
        await tenants.putMembership(tenant.id, 'bob', 'admin');
        const outcomes = await Promise.all([tenants.demoteAdmin(tenant.id, 'ada'), tenants.demoteAdmin(tenant.id, 'bob')]);
        expect(outcomes.filter((outcome) => outcome === 'demoted').length).toBeLessThanOrEqual(1);
        expect(await tenants.adminCount(tenant.id)).toBeGreaterThanOrEqual(1);
        await tenants.putMembership(tenant.id, 'ada', 'admin');
      }
    } finally {
      await temporary.dispose();
    }
  });
});
