import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInProcessBus, createNatsBus, type BusMessage, type EventBus, type SubscribeOptions } from '@platform/bus';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';
import { EXECUTOR_DURABLE } from './document-events';

/** Short enough that the slow first action outlasts several ack waits and leases. */
const ACK_WAIT_MS = 600;
const LEASE_MS = 900;
const HELD_MS = 3 * LEASE_MS;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An event's actions run one after another, oldest first, each awaited, however long the first
 * takes: the bus is told the event is still being handled (no redelivery runs the second action
 * early), and the running run's lease is renewed (nothing marks it interrupted). The same scenario
 * on the embedded bus and on JetStream.
 */
function slowActionScenario(openBus: () => Promise<EventBus>): void {
  let platform: ActionsTestPlatform;
  let bus: EventBus;
  let receiver: Server;
  let hookBase: string;
  let owner: string;
  /** Calls held until released, and every call's path with when it arrived. */
  const held: ServerResponse[] = [];
  const calls: Array<{ path: string; at: number }> = [];
  /** Every delivery to the executor: its message id and delivery count. */
  const deliveries: Array<{ msgId: string; count: number }> = [];

  beforeAll(async () => {
    bus = await openBus();
    const watched: EventBus = {
      ...bus,
      subscribe: <T>(options: SubscribeOptions<T>) =>
        bus.subscribe<T>({
          ...options,
          handler: async (message: BusMessage<T>) => {
            if (options.durable === EXECUTOR_DURABLE) deliveries.push({ msgId: message.msgId, count: message.deliveryCount });
            return options.handler(message);
          },
        }),
    };
    platform = await startActionsPlatform({ executorAckWaitMs: ACK_WAIT_MS, runLeaseMs: LEASE_MS }, { bus: watched });
    receiver = createServer((request, response) => {
      calls.push({ path: request.url ?? '', at: Date.now() });
      request.resume();
      if (request.url?.startsWith('/hold')) return void held.push(response);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    owner = await platform.signIn('owner');
  });
  afterAll(async () => {
    for (const response of held) if (!response.writableEnded) response.end();
    receiver?.close();
    await platform?.close();
    await bus?.close();
  });

  /** Two actions on new orders, the first (older) one waiting on a webhook held until released. */
  async function twoActions(projectId: string) {
    const hook = (id: string, path: string) => ({ id, blockName: 'call-webhook', configuration: { url: `${hookBase}/${path}?project=${projectId}`, retries: 0, timeoutMs: 30_000 } });
    const onCreated = [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'orders' } }];
    const first = await platform.createAction(projectId, owner, { title: 'First, slow', triggers: onCreated, blocks: [hook('slow', 'hold')] });
    const second = await platform.createAction(projectId, owner, { title: 'Second', triggers: onCreated, blocks: [hook('fast', 'fast')] });
    return { first, second };
  }

  const runs = async (projectId: string, actionId: string) => (await platform.call('GET', `/api/projects/${projectId}/actions/${actionId}/runs`, { token: owner })).body;
  const callsTo = (path: string, projectId: string) => calls.filter((call) => call.path === `/${path}?project=${projectId}`);

  /**
   * Creates an order, waits until its first action's call is held, and publishes its event again,
   * as JetStream redelivers after a lost ack or a replica's crash: the same event, a new bus id.
   */
  async function orderDeliveredTwice(projectId: string, n: number): Promise<void> {
    const copies: unknown[] = [];
    const copy = await bus.subscribe({ durable: `copy-${projectId}`, filter: `platform.docs.${projectId}.orders.>`, handler: async (message) => void copies.push(message.data) });
    try {
      expect((await platform.call('POST', `/api/projects/${projectId}/types/orders/data`, { token: owner, body: { n } })).status).toBe(201);
      await expect.poll(() => callsTo('hold', projectId).length, { timeout: 10_000, interval: 20 }).toBe(1);
      await expect.poll(() => copies.length, { timeout: 10_000, interval: 20 }).toBe(1);
      await bus.publish(`platform.docs.${projectId}.orders.created`, copies[0], { msgId: `again-${projectId}` });
    } finally {
      await copy.stop();
    }
  }

  /** Releases the held call, then checks the first ran once and succeeded, and the second only after it. */
  async function releaseAndCheckOrder(projectId: string, actions: { first: { id: string }; second: { id: string } }) {
    const released = Date.now();
    for (const response of held.splice(0)) response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const [first] = await platform.runsOf(projectId, actions.first.id, owner, 1);
    const [second] = await platform.runsOf(projectId, actions.second.id, owner, 1);
    expect(first).toMatchObject({ status: 'succeeded', blocks: [{ blockId: 'slow', status: 'succeeded' }] });
    expect(second).toMatchObject({ status: 'succeeded', blocks: [{ blockId: 'fast', status: 'succeeded' }] });
    expect(second.startedAt).toBeGreaterThanOrEqual(first.finishedAt);
    expect(callsTo('fast', projectId).map((call) => call.at >= released)).toEqual([true]);
    expect(callsTo('hold', projectId)).toHaveLength(1);
    expect((await runs(projectId, actions.first.id)).total).toBe(1);
    expect((await runs(projectId, actions.second.id)).total).toBe(1);
  }

  it('a first action that outlasts the ack wait and the lease still runs, once, before the second', async () => {
    const projectId = await platform.projectWithType('owner', 'orders');
    const actions = await twoActions(projectId);
    expect((await platform.call('POST', `/api/projects/${projectId}/types/orders/data`, { token: owner, body: { n: 1 } })).status).toBe(201);
    await expect.poll(() => callsTo('hold', projectId).length, { timeout: 10_000, interval: 20 }).toBe(1);

    await pause(HELD_MS);
    // Still the one delivery at it (the bus heard it is): no second call of the first action, the second not started, the run live.
    expect(deliveries.filter((delivery) => delivery.msgId.startsWith(`tenant-${projectId}-orders/`))).toEqual([{ msgId: expect.any(String), count: 1 }]);
    expect(callsTo('hold', projectId)).toHaveLength(1);
    expect(callsTo('fast', projectId)).toEqual([]);
    expect((await runs(projectId, actions.first.id)).items).toMatchObject([{ status: 'running' }]);
    expect((await runs(projectId, actions.second.id)).total).toBe(0);

    await releaseAndCheckOrder(projectId, actions);
  }, 30_000);

  it('the same event delivered again while its first action runs waits for it, and neither marks it interrupted nor runs the second early', async () => {
    const projectId = await platform.projectWithType('owner', 'orders');
    const actions = await twoActions(projectId);
    await orderDeliveredTwice(projectId, 2);

    await pause(HELD_MS);
    expect(callsTo('fast', projectId)).toEqual([]);
    expect((await runs(projectId, actions.first.id)).items).toMatchObject([{ status: 'running' }]);
    await releaseAndCheckOrder(projectId, actions);
  }, 30_000);

  it("a delivery that finds its event's run under way elsewhere leaves its slot free: other events' actions run meanwhile", async () => {
    const projectId = await platform.projectWithType('owner', 'orders');
    const actions = await twoActions(projectId);
    const other = await platform.projectWithType('owner', 'orders');
    const onCreated = [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'orders' } }];
    const otherAction = await platform.createAction(other, owner, { title: 'Elsewhere', triggers: onCreated, blocks: [{ id: 'other', blockName: 'call-webhook', configuration: { url: `${hookBase}/other?project=${other}`, retries: 0 } }] });
    // The executor has two slots: the first delivery holds one; the copy must not hold the other while it waits.
    await orderDeliveredTwice(projectId, 3);
    await pause(200);
    expect((await platform.call('POST', `/api/projects/${other}/types/orders/data`, { token: owner, body: { n: 4 } })).status).toBe(201);

    const [elsewhere] = await platform.runsOf(other, otherAction.id, owner, 1);
    expect(elsewhere).toMatchObject({ status: 'succeeded' });
    expect(callsTo('hold', projectId)).toHaveLength(1);
    expect(callsTo('fast', projectId)).toEqual([]);
    expect((await runs(projectId, actions.first.id)).items).toMatchObject([{ status: 'running' }]);
    await releaseAndCheckOrder(projectId, actions);
  }, 30_000);
}

describe('slow actions of one event on the embedded bus', () => {
  slowActionScenario(async () => createInProcessBus());
});

describeWithBackend('nats', 'slow actions of one event on JetStream', ({ url }) => {
  // Its own stream, so no other test's executor shares the durable.
  slowActionScenario(() => createNatsBus({ url, namespace: `slow${randomBytes(4).toString('hex')}` }));
});
