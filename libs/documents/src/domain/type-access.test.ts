import type { ProjectCaller } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { defaultAccessPaths, mayManageType } from './type-access';

const member = (permissions: string[] = []): ProjectCaller => ({ userId: 'm', superuser: false, permissions: new Set(permissions) });
const ownerManaged = { update: { userIds: [] }, delete: { userIds: [] } };

describe('mayManageType', () => {
  it('needs the project update permission when the type has no rule of its own', () => {
    expect(mayManageType('update', { caller: member(), projectAccess: ownerManaged, typeAccess: undefined })).toBe(false);
    expect(mayManageType('delete', { caller: member(), projectAccess: ownerManaged, typeAccess: { read: { userIds: ['m'] } } })).toBe(false);
    expect(mayManageType('update', { caller: member(['p::manage']), projectAccess: { update: { permission: 'p::manage' } }, typeAccess: undefined })).toBe(true);
    expect(mayManageType('delete', { caller: { ...member(), superuser: true }, projectAccess: ownerManaged, typeAccess: undefined })).toBe(true);
  });

  it("lets the type's own rule for the operation grant it, and only that operation", () => {
    const typeAccess = { update: { permission: 'p::editors' } };
    expect(mayManageType('update', { caller: member(['p::editors']), projectAccess: ownerManaged, typeAccess })).toBe(true);
    expect(mayManageType('delete', { caller: member(['p::editors']), projectAccess: ownerManaged, typeAccess })).toBe(false);
    expect(mayManageType('update', { caller: member(), projectAccess: ownerManaged, typeAccess })).toBe(false);
  });

  it('treats an empty rule as no grant (it would open the type to every member)', () => {
    expect(mayManageType('update', { caller: member(), projectAccess: ownerManaged, typeAccess: { update: {} } })).toBe(false);
  });
});

describe('defaultAccessPaths', () => {
  it('finds defaultAccess and paths below it under any operator, rename targets included', () => {
    expect(defaultAccessPaths({ $unset: { defaultAccess: '' }, $set: { name: 'x', 'defaultAccess.read.userIds': ['m'] } })).toEqual([
      'modifier.$unset.defaultAccess',
      'modifier.$set.defaultAccess.read.userIds',
    ]);
    expect(defaultAccessPaths({ $rename: { other: 'defaultAccess' } })).toEqual(['modifier.$rename.defaultAccess']);
  });

  it('ignores other fields and malformed modifiers (the general modifier rules refuse those)', () => {
    expect(defaultAccessPaths({ $set: { defaultAccessNote: 'x', 'schema.defaultAccess': 1 } })).toEqual([]);
    for (const modifier of [null, 'x', [], { $set: null }, { $set: 5 }]) expect(defaultAccessPaths(modifier)).toEqual([]);
  });
});
