import { storeOnDisk } from '@platform/gateway/testing';
import type { DocumentStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_WRITE_CAUSES_COLLECTION } from './write-causes';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

const MAX_DEPTH = 3;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An upgrade from a version that kept the depth of action writes in `action-write-causes` (before
 * 2026-12-07), stopped while an action's write still waited in its document's outbox (a crash, or a
 * stop that outlasted SHUTDOWN_DRAIN_MS): the next start publishes that write's event without
 * `actionDepth`, and the loop guard must still count it at the depth the earlier version recorded.
 */
describe('an action write an earlier version left in the outbox', () => {
  let disk: Awaited<ReturnType<typeof storeOnDisk>>;
  let store: DocumentStore;
  let platform: ActionsTestPlatform | undefined;

  beforeAll(async () => {
    disk = await storeOnDisk('write-causes-');
    store = disk.store;
  });
  afterAll(async () => {
    await platform?.close();
    await disk?.close();
  });

  it('keeps the depth that version recorded, so a self-triggering action stops where it would have', async () => {
    // The earlier version's project: a counter whose action increments it on every update.
    platform = await startActionsPlatform({ maxDepth: MAX_DEPTH }, { store });
    let owner = await platform.signIn('owner');
    const projectId = await platform.projectWithType('owner', 'counters');
    const action = await platform.createAction(projectId, owner, {
      title: 'Count my own updates',
      triggers: [{ id: 't', triggerName: 'documentUpdated', configuration: { typeId: 'counters' } }],
      blocks: [{ id: 'inc', blockName: 'update-database', configuration: { modifier: { $inc: { n: 1 } } } }],
    });
    const created = await platform.call('POST', `/api/projects/${projectId}/types/counters/data`, { token: owner, body: { n: 0 } });
    expect(created.status).toBe(201);
    const counter = created.body.id as string;
    await platform.close();
    platform = undefined;

    // What that version left when it stopped: the action's write at depth 2 (its run at depth 1),
    // stored with its change in the outbox, in the shape it wrote (no actionDepth), and the depth
    // in its side table, keyed by the event's message id and the author.
    const collection = `tenant-${projectId}-counters`;
    const writtenAt = Date.now() - 60_000;
    const change = { userId: 'owner', timestamp: writtenAt, baseRevision: 0, revision: 1, modifierJson: JSON.stringify({ $inc: { n: 1 } }) };
    expect(await store.collection(collection).updateOne({ id: counter, revision: 0 }, { $set: { n: 1, revision: 1, updatedAt: writtenAt, _outbox: [change] } })).not.toBeNull();
    await store.collection(LEGACY_WRITE_CAUSES_COLLECTION).insertOne({ id: `${collection}/${counter}/1`, userId: 'owner', depth: 2, createdAt: writtenAt });

    // The current version starts on the same store and publishes the waiting event.
    platform = await startActionsPlatform({ maxDepth: MAX_DEPTH }, { store });
    owner = await platform.signIn('owner');
    const deadline = Date.now() + 10_000;
    let runs: Array<{ depth: number; status: string; error?: { code: string } }> = [];
    for (let quietSince = Date.now(), seen = -1; Date.now() < deadline; await pause(50)) {
      runs = (await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs?pageSize=200`, { token: owner })).body.items;
      if (runs.length !== seen || runs.some((run) => run.status === 'running')) [seen, quietSince] = [runs.length, Date.now()];
      else if (runs.length > 0 && Date.now() - quietSince > 700) break;
    }
    // The event runs at depth 2 and its write, at depth 3, is refused: one more increment, as the
    // earlier version would have made. (Taken for a person's write at depth 0, it made three.)
    expect(runs.map((run) => [run.depth, run.status, run.error?.code]).reverse()).toEqual([
      [2, 'succeeded', undefined],
      [3, 'failed', 'ACTIONS_LOOP_LIMIT'],
    ]);
    const after = await platform.call('GET', `/api/projects/${projectId}/types/counters/data/${counter}`, { token: owner });
    expect(after.body).toMatchObject({ n: 2, revision: 2 });
  });
});
