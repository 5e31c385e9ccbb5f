import { createInProcessBus } from '@platform/bus';
import { MEMBERSHIP_CHANGES_FILTER, type MembershipChange } from '@platform/contracts';
import { createLogger } from '@platform/kit';
import { temporaryEmbeddedStore } from '@platform/storage/testing';
import { describe, expect, it, vi } from 'vitest';
import { MembershipChanges, membershipEnded, membershipPut } from './membership-changes';

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

describe('MembershipChanges', () => {
  it('publishes each change with an id of its own and the time, on its project subject', async () => {
    const temporary = await temporaryEmbeddedStore('membership-changes');
    const bus = createInProcessBus();
    const received: Array<{ subject: string; msgId: string; data: MembershipChange }> = [];
    await bus.subscribe<MembershipChange>({ durable: 'test', filter: MEMBERSHIP_CHANGES_FILTER, handler: async ({ subject, msgId, data }) => void received.push({ subject, msgId, data }) });
    const changes = new MembershipChanges({ store: temporary.store, bus, clock: () => 5_000, logger: createLogger({ level: 'silent' }) });
    try {
      await changes.announce([membershipEnded(member, 'owner'), membershipEnded({ ...member, userId: 'u2' }, 'owner')]);
      await vi.waitFor(() => expect(received).toHaveLength(2));
      expect(received[0]).toEqual({ subject: 'platform.members.p1.changed', msgId: `membership:${received[0]!.data.id}`, data: { ...membershipEnded(member, 'owner'), id: received[0]!.data.id, timestamp: 5_000 } });
      expect(received[0]!.data.id).not.toBe(received[1]!.data.id);
    } finally {
      await bus.close();
      await temporary.dispose();
    }
  });
});
