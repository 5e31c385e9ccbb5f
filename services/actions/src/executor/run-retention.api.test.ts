import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadActionsConfig } from '../config';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

const DAY = 24 * 60 * 60 * 1000;
const time = { offset: 0 };
let platform: ActionsTestPlatform;

beforeAll(async () => {
  platform = await startActionsPlatform({ runRetentionMs: 30 * DAY, runRetentionCheckMs: 50 }, { clock: () => Date.now() + time.offset });
});
afterAll(async () => {
  await platform?.close();
});

describe('run retention', () => {
  it('removes the runs older than the retention period at the next hourly occurrence, once, and keeps the newer ones', async () => {
    let owner = await platform.signIn('owner');
    const projectId = await platform.projectWithType('owner', 'tickets');
    const action = await platform.createAction(projectId, owner, {
      title: 'Mail on new ticket',
      triggers: [{ id: 'created', triggerName: 'documentCreated', configuration: { typeId: 'tickets' } }],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'support@example.org', subject: 'Ticket {{data.document.title}}', text: 'New' } }],
    });
    const write = (title: string) => platform.call('POST', `/api/projects/${projectId}/types/tickets/data`, { token: owner, body: { title } });
    const runDocuments = async () => (await platform.runsOf(projectId, action.id, owner, 0)).map((run: { documentId: string }) => run.documentId);

    const old = (await write('old')).body.id;
    await platform.runsOf(projectId, action.id, owner, 1);
    time.offset = 20 * DAY;
    const newer = (await write('newer')).body.id;
    expect(await platform.runsOf(projectId, action.id, owner, 2)).toHaveLength(2);
    // Twenty days on, the hourly job has run (nothing was old enough): both runs stay.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await runDocuments()).sort()).toEqual([old, newer].sort());

    time.offset = 30 * DAY + 2 * 60 * 60 * 1000;
    // A session lasts 30 days: the owner signs in again.
    owner = await platform.signIn('owner');
    await vi.waitFor(async () => expect(await runDocuments()).toEqual([newer]), { timeout: 5_000, interval: 50 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(platform.logs.filter((line) => line.msg === 'actions: old runs removed').map((line) => line.removed)).toEqual([1]);
  });

  it('marks a run by hand that a stopped process would have left running as interrupted, past the lease, and its late end changes nothing', async () => {
    // A receiver that holds every call until released: the run stays running meanwhile.
    const held: ServerResponse[] = [];
    const receiver = createServer((_request, response) => void held.push(response));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const owner = await platform.signIn('owner');
      const projectId = await platform.projectWithType('owner', 'tickets');
      const action = await platform.createAction(projectId, owner, {
        title: 'Slow hook',
        blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hold`, retries: 0 } }],
      });
      const ticket = (await platform.call('POST', `/api/projects/${projectId}/types/tickets/data`, { token: owner, body: { title: 'stuck' } })).body.id;
      const started = await platform.call('POST', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: owner, body: { typeId: 'tickets', documentId: ticket } });
      expect(started.status).toBe(202);
      await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 5_000, interval: 20 });

      // An hour on: the job's next occurrence finds the run past its ten-minute lease.
      time.offset += 61 * 60 * 1000;
      const interrupted = async () => (await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: await platform.signIn('owner') })).body.items[0];
      await vi.waitFor(async () => expect(await interrupted()).toMatchObject({ id: started.body.id, status: 'interrupted', error: { code: 'ACTIONS_RUN_INTERRUPTED' } }), { timeout: 5_000, interval: 50 });
      // The store shows the change before its write is durable; the job logs once the write returns.
      const interruptedLogged = () => platform.logs.filter((line) => line.msg === 'actions: runs by hand cut off by a stopped process marked interrupted').map((line) => line.interrupted);
      await vi.waitFor(() => expect(interruptedLogged()).toEqual([1]), { timeout: 5_000, interval: 50 });

      for (const response of held) response.writeHead(200).end('late');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await interrupted()).toMatchObject({ status: 'interrupted', blocks: [] });
    } finally {
      for (const response of held) if (!response.writableEnded) response.end();
      receiver.close();
    }
  });

  it('refuses a retention shorter than the bus keeps events (8 days at least), naming the variable', () => {
    expect(() => loadActionsConfig({ ACTIONS_RUN_RETENTION_DAYS: '7' })).toThrow(/ACTIONS_RUN_RETENTION_DAYS/);
    expect(loadActionsConfig({}).runRetentionMs).toBe(30 * DAY);
  });
});
