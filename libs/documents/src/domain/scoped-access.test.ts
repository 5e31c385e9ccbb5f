import { describe, expect, it } from 'vitest';
import { scopeAccessFields, scopeAccessModifier, unscopableAccessPaths } from './scoped-access';

describe('scoped access', () => {
  it('scopes plain names in access fields, keeps names with :: and values that are not rules', () => {
    const fields = { title: 'x', access: { read: { permission: 'viewers' }, update: { permission: 'q::editors' }, delete: 'odd' }, defaultAccess: { read: { permission: 'viewers' } } };
    expect(scopeAccessFields('p', fields, ['access'])).toEqual({ ...fields, access: { read: { permission: 'p::viewers' }, update: { permission: 'q::editors' }, delete: 'odd' } });
    expect(scopeAccessFields('p', fields, ['access', 'defaultAccess']).defaultAccess).toEqual({ read: { permission: 'p::viewers' } });
  });

  it('scopes $set values at every depth of an access field and nothing else', () => {
    const modifier = { $set: { access: { read: { permission: 'a' } }, 'access.update': { permission: 'b' }, 'access.delete.permission': 'c', 'access.read.userIds': ['u'], note: 'd' }, $unset: { x: '' } };
    expect(scopeAccessModifier('p', modifier, ['access'])).toEqual({
      $set: { access: { read: { permission: 'p::a' } }, 'access.update': { permission: 'p::b' }, 'access.delete.permission': 'p::c', 'access.read.userIds': ['u'], note: 'd' },
      $unset: { x: '' },
    });
  });

  it('names the paths of operators that could store a name unscoped', () => {
    expect(unscopableAccessPaths({ $rename: { note: 'defaultAccess.read.permission' } }, ['access', 'defaultAccess']).map((p) => p.path)).toEqual(['modifier.$rename.note']);
    expect(unscopableAccessPaths({ $max: { 'access.read.permission': 'z' } }, ['access']).map((p) => p.path)).toEqual(['modifier.$max.access.read.permission']);
    expect(unscopableAccessPaths({ $addToSet: { 'access.read.userIds': 'u' }, $pull: { 'access.read.userIds': 'v' }, $unset: { access: '' } }, ['access'])).toEqual([]);
  });
});
