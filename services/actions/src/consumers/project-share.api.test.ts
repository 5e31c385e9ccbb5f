import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsText } from '@platform/telemetry';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadActionsConfig } from '../config';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

let platform: ActionsTestPlatform;
/** Calls to /hang the receiver holds without answering, until `answering` is set; /quick answers after half a second (fast: under the second that makes a project slow). */
const held: ServerResponse[] = [];
let answering = false;
let quickNow = 0;
let quickMost = 0;
const receiver = createServer((request, response) => {
  if (request.url === '/quick') {
    quickMost = Math.max(quickMost, ++quickNow);
    return void setTimeout(() => {
      quickNow -= 1;
      response.writeHead(200).end('ok');
    }, 500);
  }
  if (answering) response.writeHead(200).end('ok');
  else held.push(response);
});
const hookUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  platform = await startActionsPlatform({ executorConcurrency: 4, projectConcurrency: 1 });
});
afterAll(async () => {
  answering = true;
  for (const response of held.splice(0)) response.writeHead(200).end('ok');
  await platform?.close();
  receiver.close();
});

const deferred = async () => Number(/^platform_action_events_deferred_total (\d+)/m.exec(await metricsText())?.[1] ?? 0);

describe("each project's share of the executor (ACTIONS_PROJECT_CONCURRENCY)", () => {
  it('lets a project whose events are handled fast use every slot', async () => {
    const owner = await platform.signIn('owner');
    const busy = await platform.projectWithType('owner', 'readings');
    const hook = await platform.createAction(busy, owner, {
      title: 'Quick hook',
      triggers: [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'readings' } }],
      blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url: hookUrl('/quick'), retries: 0 } }],
    });
    const deferredBefore = await deferred();
    await Promise.all(Array.from({ length: 4 }, (_, reading) => platform.call('POST', `/api/projects/${busy}/types/readings/data`, { token: owner, body: { reading } })));
    expect(await platform.runsOf(busy, hook.id, owner, 4)).toHaveLength(4);
    expect(quickMost).toBe(4);
    expect(await deferred()).toBe(deferredBefore);
  });

  it("keeps a project whose webhook hangs to its share once it is slow, so another project's actions run meanwhile; every held-back event runs once later", async () => {
    const owner = await platform.signIn('owner');
    const noisy = await platform.projectWithType('owner', 'jobs');
    const hook = await platform.createAction(noisy, owner, {
      title: 'Hanging hook',
      triggers: [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'jobs' } }],
      blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url: hookUrl('/hang'), retries: 0, timeoutMs: 30_000 } }],
    });
    const job = async (n: number) => (await platform.call('POST', `/api/projects/${noisy}/types/jobs/data`, { token: owner, body: { job: n } })).body.id as string;
    const jobs = [await job(0)];
    await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 5_000, interval: 20 });
    // Its first event has been running for more than a second: the project is slow.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const deferredBefore = await deferred();
    for (let n = 1; n < 6; n += 1) jobs.push(await job(n));

    // The project has its share (one slot of four): its further events go back to the bus.
    await vi.waitFor(async () => expect(await deferred()).toBeGreaterThan(deferredBefore), { timeout: 5_000, interval: 50 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(held).toHaveLength(1);

    const quiet = await platform.projectWithType('owner', 'tickets');
    const mail = await platform.createAction(quiet, owner, {
      title: 'Mail on ticket',
      triggers: [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'tickets' } }],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'quiet@example.org', subject: 'Ticket', text: 'New' } }],
    });
    await platform.call('POST', `/api/projects/${quiet}/types/tickets/data`, { token: owner, body: { title: 'meanwhile' } });
    expect(await platform.runsOf(quiet, mail.id, owner, 1)).toMatchObject([{ status: 'succeeded' }]);
    expect(held).toHaveLength(1);

    answering = true;
    for (const response of held.splice(0)) response.writeHead(200).end('ok');
    await vi.waitFor(
      async () => {
        const runs = (await platform.call('GET', `/api/projects/${noisy}/actions/${hook.id}/runs?pageSize=200`, { token: owner })).body.items as Array<{ documentId: string; status: string }>;
        expect(runs.filter((run) => run.status === 'succeeded').map((run) => run.documentId).sort()).toEqual([...jobs].sort());
      },
      { timeout: 30_000, interval: 200 },
    );
  }, 60_000);

  it('defaults to a quarter of the executor, and refuses a share larger than the executor, naming the variable', () => {
    expect(loadActionsConfig({}).projectConcurrency).toBe(16);
    expect(loadActionsConfig({ ACTIONS_EXECUTOR_CONCURRENCY: '2' }).projectConcurrency).toBe(1);
    expect(loadActionsConfig({ ACTIONS_EXECUTOR_CONCURRENCY: '8', ACTIONS_PROJECT_CONCURRENCY: '8' }).projectConcurrency).toBe(8);
    expect(() => loadActionsConfig({ ACTIONS_EXECUTOR_CONCURRENCY: '8', ACTIONS_PROJECT_CONCURRENCY: '9' })).toThrow(/ACTIONS_PROJECT_CONCURRENCY: must be at most ACTIONS_EXECUTOR_CONCURRENCY \(8\)/);
    expect(() => loadActionsConfig({ ACTIONS_PROJECT_CONCURRENCY: '0' })).toThrow(/ACTIONS_PROJECT_CONCURRENCY/);
  });
});
