import { randomUUID } from 'node:crypto';
import { createMongoStore, type DocumentStore } from '@platform/storage';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredAction } from '../domain/action-schema';
import { ActionRepository } from './action-repository';

describeWithBackend('mongo', 'actions on MongoDB', ({ url }) => {
  let store: DocumentStore;
  beforeAll(async () => {
    store = await createMongoStore({ url, database: `actions_${randomUUID().slice(0, 8)}` });
  });
  afterAll(async () => {
    await store.close();
  });

  it('keeps a block configuration whose keys start with $ (an update modifier), through insert, replace and the trigger lookup', async () => {
    const actions = new ActionRepository(store);
    const action: StoredAction = {
      id: 'a1',
      projectId: 'p1',
      title: 'Mark done',
      triggers: [{ id: 't1', triggerName: 'documentCreated' }],
      blocks: [{ id: 'b1', blockName: 'update-database', configuration: { modifier: { $set: { status: 'done' }, $inc: { count: 1 } } } }],
      connections: [],
      ownerId: 'u1',
      revision: 0,
      createdAt: 1,
      updatedAt: 1,
    };
    await actions.insert(action);
    expect(await actions.find('p1', 'a1')).toEqual(action);
    const blocks = [{ id: 'b1', blockName: 'update-database', configuration: { modifier: { $unset: { status: '' } } } }];
    const replaced = await actions.replace(action, { blocks }, [], 2);
    expect(replaced).toMatchObject({ blocks, revision: 1, updatedAt: 2 });
    const [head] = await actions.triggeredBy('p1', 'documentCreated');
    expect(head).toMatchObject({ id: 'a1', revision: 1, triggers: action.triggers });
    expect(head).not.toHaveProperty('blocks');
    expect(head).not.toHaveProperty('blocksJson');
    expect((await actions.whole(head!))?.blocks).toEqual(blocks);

    // Kept parsed for its revision; a new revision is read again, a deleted action is none.
    const newer = [{ id: 'b1', blockName: 'update-database', configuration: { modifier: { $set: { status: 'later' } } } }];
    const second = await actions.replace(replaced!, { blocks: newer }, [], 3);
    const [newHead] = await actions.triggeredBy('p1', 'documentCreated');
    expect((await actions.whole(newHead!))?.blocks).toEqual(newer);
    expect((await actions.whole(head!))?.blocks).toEqual(newer);
    await actions.replace(second!, { deletedAt: 4 }, [], 4);
    expect(await actions.whole({ ...newHead!, revision: 3 })).toBeNull();
  });
});
