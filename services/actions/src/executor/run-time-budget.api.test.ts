import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

let platform: ActionsTestPlatform;
let receiver: Server;
/** Webhook calls the receiver never answers (until the tests end). */
const held: ServerResponse[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    held.push(response);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  platform = await startActionsPlatform({ runTimeBudgetMs: 500 });
});
afterAll(async () => {
  for (const response of held) response.writeHead(204).end();
  receiver?.close();
  await platform?.close();
});

describe("a run's time budget", () => {
  it('stops the block under way once it is spent and fails every later block, recorded with ACTIONS_RUN_TIME_BUDGET', async () => {
    const owner = await platform.signIn('owner');
    const projectId = await platform.projectWithType('owner', 'tickets');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hang`;
    // Alone, the webhook would hold the run for minutes: four attempts of 30 s and the waits between them.
    const action = await platform.createAction(projectId, owner, {
      title: 'Call a receiver that hangs, then mail',
      triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'tickets' } }],
      blocks: [
        { id: 'hook', blockName: 'call-webhook', configuration: { url, timeoutMs: 30_000, retries: 3 } },
        { id: 'mail', blockName: 'send-mail', configuration: { to: 'after-the-hook@example.org', subject: 'Called' } },
      ],
    });
    expect((await platform.call('POST', `/api/projects/${projectId}/types/tickets/data`, { token: owner, body: { title: 'Hang' } })).status).toBe(201);

    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    const budgetSpent = { code: 'ACTIONS_RUN_TIME_BUDGET', message: expect.stringContaining('time budget of 500 ms') };
    expect(run).toMatchObject({
      status: 'failed',
      blocks: [
        { blockId: 'hook', status: 'failed', error: budgetSpent },
        { blockId: 'mail', status: 'failed', error: budgetSpent },
      ],
    });
    expect(held.length).toBeLessThanOrEqual(1);
    expect(platform.mailsTo('after-the-hook@example.org')).toEqual([]);
  });
});
