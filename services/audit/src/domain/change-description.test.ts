import { describe, expect, it } from 'vitest';
import { describeActionChange, describeChange, describeDomainChange, describeMembershipChange, describeProjectChange } from './change-description';

describe('describeChange', () => {
  it.each([
    ['creation', 'tasks', 0, { $set: { title: 'a', access: { read: { userIds: ['u'] } } } }, 'created', 'audit.created'],
    ['field update', 'tasks', 3, { $set: { title: 'b' }, $inc: { n: 1 } }, 'updated', 'audit.updated'],
    ['soft delete', 'tasks', 4, { $set: { deletedAt: 5 } }, 'deleted', 'audit.deleted'],
    ['restore', 'tasks', 5, { $unset: { deletedAt: '' } }, 'updated', 'audit.restored'],
    ['access only (whole)', 'tasks', 2, { $set: { access: { read: { userIds: ['u'] } } } }, 'updated', 'audit.accessChanged'],
    ['access only (paths, several operators)', 'tasks', 2, { $set: { 'access.read.permission': 'p::x' }, $pull: { 'access.update.userIds': 'u' } }, 'updated', 'audit.accessChanged'],
    ['access and a field', 'tasks', 2, { $set: { 'access.read.permission': 'p::x', title: 'c' } }, 'updated', 'audit.updated'],
    ['rename into access is not access-only', 'tasks', 2, { $rename: { title: 'access' } }, 'updated', 'audit.updated'],
    ['application publish', 'applications', 2, { $set: { publishedVersionId: 'v1', publishedVersionNumber: 1, publishedAt: 9 } }, 'updated', 'audit.published'],
    ['publishedVersionId on a document is a plain update', 'tasks', 2, { $set: { publishedVersionId: 'v1' } }, 'updated', 'audit.updated'],
  ])('%s', (_name, typeId, revision, modifier, changeType, changeDescription) => {
    expect(describeChange(typeId, revision, modifier as never)).toEqual({ changeType, changeDescription });
  });
});

describe('describeMembershipChange', () => {
  it.each([
    ['added', 'created', 'audit.memberAdded'],
    ['permissionsChanged', 'updated', 'audit.memberPermissionsChanged'],
    ['removed', 'deleted', 'audit.memberRemoved'],
  ] as const)('%s', (change, changeType, changeDescription) => {
    expect(describeMembershipChange(change)).toEqual({ changeType, changeDescription });
  });
});

describe('describeActionChange', () => {
  it.each(['created', 'updated', 'deleted'] as const)('%s', (change) => {
    expect(describeActionChange(change)).toEqual({ changeType: change, changeDescription: `audit.${change}` });
  });
});

describe('describeDomainChange', () => {
  it.each([
    ['created', 'created', 'audit.created'],
    ['renamed', 'updated', 'audit.updated'],
    ['assigned', 'updated', 'audit.domainAssigned'],
    ['verified', 'updated', 'audit.domainVerified'],
    ['removed', 'deleted', 'audit.deleted'],
  ] as const)('%s', (change, changeType, changeDescription) => {
    expect(describeDomainChange(change)).toEqual({ changeType, changeDescription });
  });
});

describe('describeProjectChange', () => {
  it.each([
    ['created', 'created', 'audit.created'],
    ['renamed', 'updated', 'audit.updated'],
    ['aiEnabled', 'updated', 'audit.aiEnabled'],
    ['aiDisabled', 'updated', 'audit.aiDisabled'],
    ['moved', 'updated', 'audit.projectMoved'],
    ['ownerChanged', 'updated', 'audit.ownerChanged'],
    ['deleted', 'deleted', 'audit.deleted'],
    ['restored', 'updated', 'audit.restored'],
  ] as const)('%s', (change, changeType, changeDescription) => {
    expect(describeProjectChange(change)).toEqual({ changeType, changeDescription });
  });
});
