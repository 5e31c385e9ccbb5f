import type { MembershipChange } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { membershipChangeMessages, membershipEnded, membershipPut } from './membership-changes';

const member = { id: 'p1:u1', projectId: 'p1', userId: 'u1', role: 'member' as const, permissions: ['p1::editors'], createdAt: 1 };

describe('membershipPut and membershipEnded', () => {
  it('name a new member as added, changed permissions as such, the same permissions in another order as no change', () => {
    expect(membershipPut(member, undefined, 'owner')).toEqual([{ projectId: 'p1', userId: 'u1', change: 'added', permissions: ['p1::editors'], changedBy: 'owner' }]);
    expect(membershipPut(member, ['p1::readers'], 'owner')).toEqual([
      { projectId: 'p1', userId: 'u1', change: 'permissionsChanged', permissions: ['p1::editors'], previousPermissions: ['p1::readers'], changedBy: 'owner' },
    ]);
    expect(membershipPut({ ...member, permissions: ['p1::a', 'p1::b'] }, ['p1::b', 'p1::a'], 'owner')).toEqual([]);
    expect(membershipPut({ ...member, permissions: ['p1::a'] }, ['p1::a', 'p1::b'], 'owner')).toHaveLength(1);
    expect(membershipEnded(member, 'u1')).toEqual({ projectId: 'p1', userId: 'u1', change: 'removed', permissions: [], previousPermissions: ['p1::editors'], changedBy: 'u1' });
  });
});

describe('membershipChangeMessages', () => {
  it('give each change an id of its own and the time, on its project subject, under a message id of that id', () => {
    const messages = membershipChangeMessages([membershipEnded(member, 'owner'), membershipEnded({ ...member, userId: 'u2' }, 'owner')], () => 5_000);
    const first = messages[0]!.data as MembershipChange;
    expect(messages[0]).toEqual({ subject: 'platform.members.p1.changed', msgId: `membership:${first.id}`, data: { ...membershipEnded(member, 'owner'), id: first.id, timestamp: 5_000 } });
    expect(first.id).not.toBe((messages[1]!.data as MembershipChange).id);
  });
});
