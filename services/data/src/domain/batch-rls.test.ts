import { describe, expect, it } from 'vitest';
import { batchModifierFor, batchRlsRequestSchema, batchTargetFilter, type BatchRlsRequest } from './batch-rls';

const request = (body: Partial<BatchRlsRequest> & { action: BatchRlsRequest['action'] }) => batchRlsRequestSchema.parse(body);

describe('batch RLS request rules', () => {
  it.each([
    [{}, 'action'],
    [{ action: 'grant' }, 'action'],
    [{ action: 'setPermission', permission: 'x' }, 'operations'],
    [{ action: 'setPermission', operations: [], permission: 'x' }, 'operations'],
    [{ action: 'setPermission', operations: ['write'], permission: 'x' }, 'operations'],
    [{ action: 'setPermission', operations: ['read'] }, 'permission'],
    [{ action: 'removePermission', operations: ['read'] }, 'permission'],
    [{ action: 'addUserId', operations: ['read'] }, 'userId'],
    [{ action: 'removeUserId', operations: ['read'] }, 'userId'],
    [{ action: 'resetToDefault', filter: { rlsOperation: 'write' } }, 'filter'],
    [{ action: 'resetToDefault', filter: { unknown: 1 } }, 'filter'],
  ])('%j is rejected naming %s', (body, field) => {
    const result = batchRlsRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it.each([
    [{ action: 'setPermission', operations: ['read'], permission: '' }, 'permission'],
    [{ action: 'addUserId', operations: ['read'], userId: '' }, 'userId'],
    [{ action: 'setPermission', operations: [], permission: 'x' }, 'operations'],
  ])('%j has one issue, on %s: empty, not also missing', (body, field) => {
    const issues = batchRlsRequestSchema.safeParse(body).error?.issues ?? [];
    expect(issues.map((issue) => issue.path.join('.'))).toEqual([field]);
  });

  it('accepts resetToDefault without operations', () => {
    expect(batchRlsRequestSchema.safeParse({ action: 'resetToDefault' }).success).toBe(true);
  });
});

describe('batch RLS modifiers', () => {
  it('scopes permissions with the project prefix unless they contain ::', () => {
    expect(batchModifierFor('p1', request({ action: 'setPermission', operations: ['read', 'update'], permission: 'editors' }), undefined, undefined)).toEqual({
      $set: { 'access.read.permission': 'p1::editors', 'access.update.permission': 'p1::editors' },
    });
    expect(batchModifierFor('p1', request({ action: 'setPermission', operations: ['read'], permission: 'other::editors' }), undefined, undefined)).toEqual({
      $set: { 'access.read.permission': 'other::editors' },
    });
  });

  it('answers null when nothing would change', () => {
    const access = { read: { permission: 'p1::editors', userIds: ['u1'] } };
    expect(batchModifierFor('p1', request({ action: 'setPermission', operations: ['read'], permission: 'editors' }), access, undefined)).toBeNull();
    expect(batchModifierFor('p1', request({ action: 'removePermission', operations: ['update'], permission: 'editors' }), access, undefined)).toBeNull();
    expect(batchModifierFor('p1', request({ action: 'addUserId', operations: ['read'], userId: 'u1' }), access, undefined)).toBeNull();
    expect(batchModifierFor('p1', request({ action: 'removeUserId', operations: ['read'], userId: 'u2' }), access, undefined)).toBeNull();
    expect(batchModifierFor('p1', request({ action: 'resetToDefault' }), access, { ...access })).toBeNull();
  });

  it('removes only the named permission, adds and pulls user ids, resets to the default', () => {
    const access = { read: { permission: 'p1::editors', userIds: ['u1'] }, update: { permission: 'p1::admins' } };
    expect(batchModifierFor('p1', request({ action: 'removePermission', operations: ['read', 'update'], permission: 'editors' }), access, undefined)).toEqual({
      $unset: { 'access.read.permission': '' },
    });
    expect(batchModifierFor('p1', request({ action: 'addUserId', operations: ['read', 'delete'], userId: 'u2' }), access, undefined)).toEqual({
      $addToSet: { 'access.read.userIds': 'u2', 'access.delete.userIds': 'u2' },
    });
    expect(batchModifierFor('p1', request({ action: 'removeUserId', operations: ['read'], userId: 'u1' }), access, undefined)).toEqual({
      $pull: { 'access.read.userIds': 'u1' },
    });
    expect(batchModifierFor('p1', request({ action: 'resetToDefault' }), access, { read: { userIds: [] } })).toEqual({ $set: { access: { read: { userIds: [] } } } });
  });
});

describe('batch RLS target filter', () => {
  it('targets every non-deleted entity without a filter', () => {
    expect(batchTargetFilter('p1', undefined)).toEqual({ deletedAt: { $exists: false } });
  });

  it('targets deleted entities too only with includeDeleted', () => {
    expect(batchTargetFilter('p1', undefined, true)).toEqual({});
    expect(batchTargetFilter('p1', { rlsOperation: 'read', rlsUserId: 'u1' }, true)).toEqual({ $or: [{ 'access.read.userIds': 'u1' }] });
    expect(batchTargetFilter('p1', undefined, false)).toEqual({ deletedAt: { $exists: false } });
  });

  it('matches the permission on any operation without rlsOperation, on that one with it', () => {
    expect(batchTargetFilter('p1', { rlsPermission: 'editors' })).toEqual({
      $and: [
        { deletedAt: { $exists: false } },
        { $or: [{ 'access.read.permission': 'p1::editors' }, { 'access.update.permission': 'p1::editors' }, { 'access.delete.permission': 'p1::editors' }] },
      ],
    });
    expect(batchTargetFilter('p1', { rlsOperation: 'update', rlsUserId: 'u1' })).toEqual({
      $and: [{ deletedAt: { $exists: false } }, { $or: [{ 'access.update.userIds': 'u1' }] }],
    });
  });
});
