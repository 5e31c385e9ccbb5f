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

  it('refuses a retention shorter than the bus keeps events (8 days at least), naming the variable', () => {
    expect(() => loadActionsConfig({ ACTIONS_RUN_RETENTION_DAYS: '7' })).toThrow(/ACTIONS_RUN_RETENTION_DAYS/);
    expect(loadActionsConfig({}).runRetentionMs).toBe(30 * DAY);
  });
});
