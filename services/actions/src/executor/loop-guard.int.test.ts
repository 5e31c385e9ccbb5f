import { randomBytes } from 'node:crypto';
import { createInProcessBus, createNatsBus, type EventBus } from '@platform/bus';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

const MAX_DEPTH = 3;
/** Above what the two-document scenario attempts (1 + 2 + 4 runs of 2 writes), below the four-document one's 4 + 16 + 64. */
const MAX_CHAIN_WRITES = 20;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RunItem {
  depth: number;
  status: string;
  eventId: string;
  error?: { code: string };
  blocks: Array<{ blockId: string; status: string; error?: { code: string } }>;
}

/**
 * The loop guard (docs/actions.md) through the gateway: every write an action makes carries its
 * depth to its own event, so chains stop at ACTIONS_MAX_DEPTH also when one run writes several
 * documents and the runs those writes trigger conflict with each other, and a chain's writes stop at
 * ACTIONS_MAX_CHAIN_WRITES however wide it fans out. The same scenarios on the embedded bus and on
 * JetStream (the depth and the chain travel in the event's JSON).
 */
function loopGuardScenario(openBus: () => Promise<EventBus>): void {
  let platform: ActionsTestPlatform;
  let bus: EventBus;
  let owner: string;

  beforeAll(async () => {
    bus = await openBus();
    platform = await startActionsPlatform({ maxDepth: MAX_DEPTH, maxChainWrites: MAX_CHAIN_WRITES }, { bus });
    owner = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
    await bus?.close();
  });

  const create = async (projectId: string, typeId: string, body: Record<string, unknown>): Promise<string> => {
    const response = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token: owner, body });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  const revisionOf = async (projectId: string, typeId: string, id: string): Promise<number> =>
    (await platform.call('GET', `/api/projects/${projectId}/types/${typeId}/data/${id}`, { token: owner })).body.revision as number;
  const listRuns = async (projectId: string, actionId: string): Promise<{ items: RunItem[]; total: number }> =>
    (await platform.call('GET', `/api/projects/${projectId}/actions/${actionId}/runs?pageSize=200`, { token: owner })).body;

  /** Polls until no run is running and the count held still for half a second (at most `timeoutMs`); answers the runs. */
  async function settledRuns(projectId: string, actionId: string, timeoutMs = 5_000): Promise<RunItem[]> {
    const deadline = Date.now() + timeoutMs;
    let runs: RunItem[] = [];
    for (let stableSince = Date.now(), lastTotal = -1; Date.now() < deadline; await pause(50)) {
      const listed = await listRuns(projectId, actionId);
      runs = listed.items;
      if (listed.total !== lastTotal || runs.some((run) => run.status === 'running')) [lastTotal, stableSince] = [listed.total, Date.now()];
      else if (Date.now() - stableSince > 500) break;
    }
    return runs;
  }

  it('stops a two-block action that writes two documents at the depth limit, however its concurrent runs conflict', async () => {
    const projectId = await platform.projectWithType('owner', 'two2');
    const e0 = await create(projectId, 'two2', { n: 0 });
    const e1 = await create(projectId, 'two2', { n: 0 });
    const increment = (id: string, documentId: string) => ({ id, blockName: 'update-database', configuration: { documentId, modifier: { $inc: { n: 1 } } } });
    const action = await platform.createAction(projectId, owner, {
      title: 'Two counters',
      triggers: [{ id: 't', triggerName: 'documentUpdated', configuration: { typeId: 'two2' } }],
      blocks: [increment('b0', e0), increment('b1', e1)],
    });
    try {
      expect((await platform.call('PATCH', `/api/projects/${projectId}/types/two2/data/${e0}`, { token: owner, body: { modifier: { $set: { label: 'go' } }, baseRevision: 0 } })).status).toBe(200);
      const runs = await settledRuns(projectId, action.id);
      const revisions = [await revisionOf(projectId, 'two2', e0), await revisionOf(projectId, 'two2', e1)];
      // A run at depth d writes at most both documents, so depth d holds at most 2^d runs: 1 + 2 + 4
      // that write, at most 8 refused at depth 3. (Without the guard: hundreds within seconds.)
      expect(runs.length).toBeLessThanOrEqual(15);
      // e0: the person's PATCH and at most 1 + 2 + 4 writes by actions; e1 the same without the PATCH.
      expect(revisions[0]).toBeLessThanOrEqual(8);
      expect(revisions[1]).toBeLessThanOrEqual(7);
      // Only the person's write is at depth 0; the depth in run records reaches the limit and stops there.
      expect(runs.filter((run) => run.depth === 0).map((run) => run.eventId)).toEqual([expect.stringMatching(new RegExp(`/${e0}/1$`))]);
      expect(Math.max(...runs.map((run) => run.depth))).toBe(MAX_DEPTH);
      const refused = runs.filter((run) => run.depth === MAX_DEPTH);
      expect(refused.length).toBeGreaterThan(0);
      for (const run of refused) expect(run).toMatchObject({ status: 'failed', error: { code: 'ACTIONS_LOOP_LIMIT' }, blocks: [] });
      // Every write below the limit made an event one deeper: as many runs at depth d + 1 as writes at depth d.
      for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
        const writes = runs.filter((run) => run.depth === depth).flatMap((run) => run.blocks).filter((block) => block.status === 'succeeded').length;
        expect(runs.filter((run) => run.depth === depth + 1)).toHaveLength(writes);
      }
      // Quiet for good: nothing more runs or is written.
      await pause(300);
      expect((await listRuns(projectId, action.id)).total).toBe(runs.length);
      expect([await revisionOf(projectId, 'two2', e0), await revisionOf(projectId, 'two2', e1)]).toEqual(revisions);
    } finally {
      // Should the guard fail, the loop must not go on under the next tests.
      await platform.call('DELETE', `/api/projects/${projectId}/actions/${action.id}`, { token: owner });
    }
  });

  it('stops a chain that fans out at its budget of writes, and gives the next write by a person a budget of its own', async () => {
    const projectId = await platform.projectWithType('owner', 'fan4');
    const targets: string[] = [];
    for (let index = 0; index < 4; index += 1) targets.push(await create(projectId, 'fan4', { n: 0 }));
    const action = await platform.createAction(projectId, owner, {
      title: 'Four counters',
      triggers: [{ id: 't', triggerName: 'documentUpdated', configuration: { typeId: 'fan4' } }],
      blocks: targets.map((documentId, index) => ({ id: `b${index}`, blockName: 'update-database', configuration: { documentId, modifier: { $inc: { n: 1 } } } })),
    });
    const actionWrites = async () => {
      let total = 0;
      // Each document's revisions beyond its creation, less the person's PATCHes of the first.
      for (const id of targets) total += await revisionOf(projectId, 'fan4', id);
      return total;
    };
    const blocksOf = (runs: RunItem[]) => runs.flatMap((run) => run.blocks);
    const refusedByBudget = (runs: RunItem[]) => blocksOf(runs).filter((block) => block.error?.code === 'ACTIONS_CHAIN_LIMIT');
    try {
      expect((await platform.call('PATCH', `/api/projects/${projectId}/types/fan4/data/${targets[0]}`, { token: owner, body: { modifier: { $set: { label: 'go' } }, baseRevision: 0 } })).status).toBe(200);
      const first = await settledRuns(projectId, action.id);
      // Without the budget: 4 + 16 + 64 write attempts below the depth limit. With it, the chain's
      // blocks attempt 20 writes (succeeded, or failed on another run's conflict), the rest are refused.
      expect(blocksOf(first).length - refusedByBudget(first).length).toBe(MAX_CHAIN_WRITES);
      expect(refusedByBudget(first).length).toBeGreaterThan(0);
      for (const block of refusedByBudget(first)) expect(block).toMatchObject({ status: 'failed' });
      const written = (await actionWrites()) - 1;
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThanOrEqual(MAX_CHAIN_WRITES);
      expect(blocksOf(first).filter((block) => block.status === 'succeeded')).toHaveLength(written);

      // A person's next write starts a chain of its own, with a budget of its own.
      const revision = await revisionOf(projectId, 'fan4', targets[1]!);
      expect((await platform.call('PATCH', `/api/projects/${projectId}/types/fan4/data/${targets[1]}`, { token: owner, body: { modifier: { $set: { label: 'again' } }, baseRevision: revision } })).status).toBe(200);
      const both = await settledRuns(projectId, action.id);
      const second = both.slice(0, both.length - first.length);
      expect(blocksOf(second).length - refusedByBudget(second).length).toBe(MAX_CHAIN_WRITES);
      expect((await actionWrites()) - 2 - written).toBe(blocksOf(second).filter((block) => block.status === 'succeeded').length);
      expect(blocksOf(second).some((block) => block.status === 'succeeded')).toBe(true);
    } finally {
      await platform.call('DELETE', `/api/projects/${projectId}/actions/${action.id}`, { token: owner });
    }
  });

  it('stops an action that triggers itself after 3 runs', async () => {
    const projectId = await platform.projectWithType('owner', 'counters');
    const action = await platform.createAction(projectId, owner, {
      title: 'Count my own updates',
      triggers: [{ id: 't', triggerName: 'documentUpdated', configuration: { typeId: 'counters' } }],
      blocks: [{ id: 'inc', blockName: 'update-database', configuration: { modifier: { $inc: { n: 1 } } } }],
    });
    const counter = await create(projectId, 'counters', { n: 0 });
    await platform.call('PATCH', `/api/projects/${projectId}/types/counters/data/${counter}`, { token: owner, body: { modifier: { $set: { label: 'go' } }, baseRevision: 0 } });
    const runs = (await settledRuns(projectId, action.id)).reverse();
    expect(runs.map((run) => [run.depth, run.status])).toEqual([
      [0, 'succeeded'],
      [1, 'succeeded'],
      [2, 'succeeded'],
      [3, 'failed'],
    ]);
    expect(await revisionOf(projectId, 'counters', counter)).toBe(4);
  });
}

describe('the loop guard on the embedded bus', () => {
  loopGuardScenario(async () => createInProcessBus());
});

describeWithBackend('nats', 'the loop guard on JetStream', ({ url }) => {
  loopGuardScenario(() => createNatsBus({ url, namespace: `loop${randomBytes(4).toString('hex')}` }));
});
