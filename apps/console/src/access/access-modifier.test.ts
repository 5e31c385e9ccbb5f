import { describe, expect, it } from 'vitest';
import { accessModifier } from './access-modifier';

describe('accessModifier', () => {
  it('sets the changed rules whole and leaves the others alone', () => {
    const current = { read: { permission: 'p1::viewers' }, update: { userIds: ['u1'] } };
    expect(accessModifier('p1', current, { read: { permission: 'viewers' }, update: { userIds: ['u1', 'u2'] } })).toEqual({ $set: { 'access.update': { userIds: ['u1', 'u2'] } } });
  });

  it('unsets a rule that no longer names anyone, so the operation is open to members again', () => {
    expect(accessModifier('p1', { delete: { userIds: ['u1'] } }, {})).toEqual({ $unset: { 'access.delete': true } });
    expect(accessModifier('p1', { read: { permission: 'p1::a' } }, { update: { permission: 'b' } })).toEqual({ $set: { 'access.update': { permission: 'b' } }, $unset: { 'access.read': true } });
  });

  it('answers null when nothing changed, an empty stored rule counting as none', () => {
    expect(accessModifier('p1', { read: {} }, {})).toBeNull();
    expect(accessModifier('p1', { read: { permission: 'p1::a', userIds: ['x'] } }, { read: { permission: 'a', userIds: ['x'] } })).toBeNull();
  });
});
