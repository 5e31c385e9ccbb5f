import { createInProcessBus, type EventBus } from '@platform/bus';
import { MEMBERSHIP_CHANGES_FILTER, type MembershipChange } from '@platform/contracts';
import { createLogger } from '@platform/kit';
import { temporaryEmbeddedStore, type TemporaryStore } from '@platform/storage/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MEMBERSHIP_OUTBOX_COLLECTION, MembershipChanges, membershipEnded, membershipPut } from './membership-changes';

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
  let temporary: TemporaryStore;
  let bus: EventBus;
  let now: number;
  let busDown: boolean;
  let received: MembershipChange[];
  let changes: MembershipChanges;

  beforeEach(async () => {
    temporary = await temporaryEmbeddedStore('membership-changes');
    const inProcess = createInProcessBus();
    busDown = false;
    bus = {
      ...inProcess,
      publish: (subject, data, options) => (busDown ? Promise.reject(new Error('bus unavailable')) : inProcess.publish(subject, data, options)),
    };
    received = [];
    await inProcess.subscribe<MembershipChange>({ durable: 'test', filter: MEMBERSHIP_CHANGES_FILTER, handler: async (message) => void received.push(message.data) });
    now = 1_000_000;
    changes = new MembershipChanges({ store: temporary.store, bus, clock: () => now, logger: createLogger({ level: 'silent' }) });
  });

  afterEach(async () => {
    changes.stop();
    await bus.close();
    await temporary.dispose();
  });

  const waiting = () => temporary.store.collection(MEMBERSHIP_OUTBOX_COLLECTION).count();

  it('publishes each change at once and keeps nothing waiting', async () => {
    await changes.announce([membershipEnded(member, 'owner')]);
    await vi.waitFor(() => expect(received).toEqual([expect.objectContaining({ projectId: 'p1', userId: 'u1', change: 'removed', changedBy: 'owner', timestamp: now })]));
    expect(await waiting()).toBe(0);
    await changes.announce([]);
    expect(await waiting()).toBe(0);
  });

  it('keeps what the bus refused, and the sweep publishes it once the change is past its request', async () => {
    busDown = true;
    await changes.announce([...membershipPut(member, undefined, 'owner'), membershipEnded(member, 'owner')]);
    expect(await waiting()).toBe(2);

    busDown = false;
    // Still within its request's time: the request may yet publish it itself.
    expect(await changes.sweep()).toBe(0);
    now += 10_000;
    expect(await changes.sweep()).toBe(2);
    await vi.waitFor(() => expect(received.map((change) => change.change).sort()).toEqual(['added', 'removed']));
    expect(await waiting()).toBe(0);
    expect(await changes.sweep()).toBe(0);
  });
});
