import { temporaryEmbeddedStore, type TemporaryStore } from '@platform/storage/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TenantRepository } from '../tenants/tenant-repository';
import { stepDown } from './account-step-down';
import type { UserRecord } from './user-record';
import { UserRepository } from './user-repository';

const record = (id: string, platformOwner: boolean): UserRecord => ({ id, email: `${id}@example.org`, passwordHash: 'x', displayName: id, profileFields: {}, recentProjects: {}, platformOwner, createdAt: 0, updatedAt: 0, revision: 0 });

describe('stepDown, before an account is deleted', () => {
  let temporary: TemporaryStore;
  let users: UserRepository;

  beforeEach(async () => {
    temporary = await temporaryEmbeddedStore('account-step-down');
    users = new UserRepository(temporary.store, () => 1_000);
    for (const user of [record('ada', true), record('bob', true)]) await users.insert(user);
  });
  afterEach(async () => {
    await temporary.dispose();
  });

  it('gives the roles back when the store fails halfway: the account stays, with what it had', async () => {
    const tenants = new TenantRepository(temporary.store, () => 1_000);
    const failing = Object.assign(Object.create(tenants) as TenantRepository, { demoteAdmin: () => Promise.reject(new Error('connection reset')) });
    const leaving = [{ id: 't1', name: 'Shared', personal: false, role: 'admin' }] as unknown as Parameters<typeof stepDown>[2];
    await expect(stepDown({ users, tenants: failing }, 'ada', leaving)).rejects.toThrow('connection reset');
    expect(await users.require('ada')).toMatchObject({ platformOwner: true });
  });

  it('gives them back when it is refused, and keeps them given up when it goes through', async () => {
    const tenants = new TenantRepository(temporary.store, () => 1_000);
    expect(await stepDown({ users, tenants }, 'ada', [])).toEqual({ successions: [] });
    expect(await users.require('ada')).toMatchObject({ platformOwner: false });
    expect(await stepDown({ users, tenants }, 'bob', [])).toMatchObject({ blocker: { reason: 'last-platform-owner' } });
    expect(await users.require('bob')).toMatchObject({ platformOwner: true });
  });
});
