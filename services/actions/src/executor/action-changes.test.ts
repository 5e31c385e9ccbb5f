import type { ActionChange } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import type { StoredAction } from '../domain/action-schema';
import { actionChangeMessage } from './action-changes';

const action: StoredAction = {
  id: 'a1',
  projectId: 'p1',
  title: 'Notify',
  triggers: [],
  blocks: [{ id: 'w', name: 'callWebhook', configuration: { url: 'https://hooks.example.com/x', secret: 'signing key' } }] as never,
  connections: [],
  access: { read: { userIds: ['ada'] } },
  ownerId: 'ada',
  revision: 2,
  createdAt: 1,
  updatedAt: 7,
};

describe('actionChangeMessage', () => {
  it("carries the title, access and revision of the save, under a message id of its revision, and nothing of the blocks (a webhook's address or secret)", () => {
    const message = actionChangeMessage(action, 'updated', 'bea');
    expect(message).toEqual({
      subject: 'platform.actions.p1.changed',
      msgId: 'action-change:p1/a1/2',
      data: { projectId: 'p1', actionId: 'a1', revision: 2, title: 'Notify', access: { read: { userIds: ['ada'] } }, change: 'updated', changedBy: 'bea', timestamp: 7 } satisfies ActionChange,
    });
    expect(JSON.stringify(message)).not.toContain('hooks.example.com');
    expect(JSON.stringify(message)).not.toContain('signing key');
  });
});
