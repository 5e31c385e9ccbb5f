import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

let platform: ActionsTestPlatform;
let owner: string;
let member: string;

beforeAll(async () => {
  platform = await startActionsPlatform();
  owner = await platform.signIn('owner');
  member = await platform.signIn('member');
});
afterAll(async () => {
  await platform?.close();
});

async function createDocument(projectId: string, typeId: string, body: Record<string, unknown>, token = owner) {
  const response = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token, body });
  expect(response.status).toBe(201);
  return response.body as { id: string; revision: number };
}

const runsPath = (projectId: string, actionId: string) => `/api/projects/${projectId}/actions/${actionId}/runs`;

/** An action that mails the document's title; triggered only by deletions of `tickets`, so no write below runs it. */
const mailOnDelete = (to: string) => ({
  title: 'Mail the ticket',
  triggers: [{ id: 'deleted', triggerName: 'documentDeleted', configuration: { typeId: 'tickets' } }],
  blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to, subject: 'Ticket: {{data.document.title}} (r{{data.revision}}, {{triggerName}})', text: 'Changed by {{data.change.userId}}' } }],
});

describe('POST .../actions/{actionId}/runs: a run by hand', () => {
  it("runs the action for its owner on the document's latest change, whatever its triggers, and records it as the owner's", async () => {
    const projectId = await platform.projectWithType('owner', 'tickets', [{ userId: 'member' }]);
    const action = await platform.createAction(projectId, owner, mailOnDelete('by-hand@example.org'));
    const ticket = await createDocument(projectId, 'tickets', { title: 'Printer on fire' });
    expect((await platform.call('PATCH', `/api/projects/${projectId}/types/tickets/data/${ticket.id}`, { token: member, body: { modifier: { $set: { title: 'Printer smoking' } }, baseRevision: 0 } })).status).toBe(200);
    expect(await platform.runsOf(projectId, action.id, owner, 0)).toEqual([]);

    const started = await platform.call('POST', runsPath(projectId, action.id), { token: owner, body: { typeId: 'tickets', documentId: ticket.id } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ actionId: action.id, typeId: 'tickets', documentId: ticket.id, eventId: expect.stringMatching(new RegExp(`/${ticket.id}/1$`)), triggerName: 'documentUpdated', depth: 0, startedBy: 'owner', status: 'running', blocks: [] });
    expect(started.body).not.toHaveProperty('projectId');
    expect(started.body).not.toHaveProperty('changedAt');

    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run).toMatchObject({ id: started.body.id, startedBy: 'owner', status: 'succeeded', blocks: [{ blockId: 'mail', status: 'succeeded' }] });
    expect(platform.mailsTo('by-hand@example.org')).toEqual([{ to: 'by-hand@example.org', subject: 'Ticket: Printer smoking (r1, documentUpdated)', text: 'Changed by member' }]);

    // Again on the same document: a second run of its own.
    const again = await platform.call('POST', runsPath(projectId, action.id), { token: owner, body: { typeId: 'tickets', documentId: ticket.id } });
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(started.body.id);
    expect((await platform.runsOf(projectId, action.id, owner, 2)).map((each) => each.id)).toEqual([started.body.id, again.body.id]);
    expect(platform.mailsTo('by-hand@example.org')).toHaveLength(2);
  });

  it("runs a new document's creation as documentCreated, and a deleted one's deletion as documentDeleted", async () => {
    const projectId = await platform.projectWithType('owner', 'tickets');
    const action = await platform.createAction(projectId, owner, mailOnDelete('kinds-by-hand@example.org'));
    const fresh = await createDocument(projectId, 'tickets', { title: 'Fresh' });
    expect((await platform.call('POST', runsPath(projectId, action.id), { token: owner, body: { typeId: 'tickets', documentId: fresh.id } })).body.triggerName).toBe('documentCreated');
    await platform.runsOf(projectId, action.id, owner, 1);
    const gone = await createDocument(projectId, 'tickets', { title: 'Gone' });
    expect((await platform.call('DELETE', `/api/projects/${projectId}/types/tickets/data/${gone.id}`, { token: owner })).status).toBe(200);
    // The deletion ran it once by its trigger; by hand, once more on the same change.
    await platform.runsOf(projectId, action.id, owner, 2);
    const again = await platform.call('POST', runsPath(projectId, action.id), { token: owner, body: { typeId: 'tickets', documentId: gone.id } });
    expect(again.body).toMatchObject({ triggerName: 'documentDeleted', eventId: expect.stringMatching(new RegExp(`/${gone.id}/1$`)), startedBy: 'owner' });
    await platform.runsOf(projectId, action.id, owner, 3);
    expect(platform.mailsTo('kinds-by-hand@example.org').map((mail) => mail.subject)).toEqual(['Ticket: Fresh (r0, documentCreated)', 'Ticket: Gone (r1, documentDeleted)', 'Ticket: Gone (r1, documentDeleted)']);
  });

  it('refuses anyone but the owner, documents the caller may not read or that do not exist, and bad bodies, and runs nothing', async () => {
    const projectId = await platform.projectWithType('owner', 'tickets', [{ userId: 'member' }]);
    const action = await platform.createAction(projectId, member, mailOnDelete('refused@example.org'));
    const open = await createDocument(projectId, 'tickets', { title: 'Open' });
    const hidden = await createDocument(projectId, 'tickets', { title: 'Owner only', access: { read: { userIds: ['owner'] } } });
    const gone = await createDocument(projectId, 'tickets', { title: 'Gone' });
    expect((await platform.call('DELETE', `/api/projects/${projectId}/types/tickets/data/${gone.id}`, { token: owner })).status).toBe(200);
    // The deletion triggered the action once, as its trigger says.
    await platform.runsOf(projectId, action.id, member, 1);
    const hiddenGone = await createDocument(projectId, 'tickets', { title: 'Owner only, gone', access: { read: { userIds: ['owner'] } } });
    expect((await platform.call('DELETE', `/api/projects/${projectId}/types/tickets/data/${hiddenGone.id}`, { token: owner })).status).toBe(200);
    const outsider = await platform.signIn('outsider');
    const run = (token: string, body: unknown, actionId = action.id) => platform.call('POST', runsPath(projectId, actionId), { token, body });

    // The project owner may read and update the action but does not own it: saving it would make it theirs.
    expect(await run(owner, { typeId: 'tickets', documentId: open.id })).toMatchObject({ status: 403, body: { code: 'ACTIONS_NOT_OWNER' } });
    for (const documentId of [hidden.id, hiddenGone.id, 'no-such-ticket']) {
      expect(await run(member, { typeId: 'tickets', documentId }), documentId).toMatchObject({ status: 404, body: { code: 'ACTIONS_DOCUMENT_NOT_FOUND', details: { field: 'documentId' } } });
    }
    expect(await run(member, { typeId: 'no-such-type', documentId: open.id })).toMatchObject({ status: 404, body: { code: 'ACTIONS_DOCUMENT_NOT_FOUND' } });
    expect(await run(member, { typeId: 'types', documentId: 'tickets' })).toMatchObject({ status: 404, body: { code: 'ACTIONS_DOCUMENT_NOT_FOUND' } });
    for (const body of [{ typeId: 'tickets' }, { typeId: 'tickets', documentId: '../x' }, { typeId: '', documentId: open.id }, 'tickets']) {
      expect((await run(member, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await run(member, { typeId: 'tickets', documentId: open.id }, 'no-such-action')).toMatchObject({ status: 404, body: { code: 'ACTIONS_NOT_FOUND' } });
    expect((await run(outsider, { typeId: 'tickets', documentId: open.id })).status).toBe(404);
    expect((await platform.call('POST', runsPath(projectId, action.id), { body: { typeId: 'tickets', documentId: open.id } })).status).toBe(401);

    const runs = await platform.call('GET', `${runsPath(projectId, action.id)}?pageSize=200`, { token: member });
    expect(runs.body.total).toBe(1);
    expect(runs.body.items[0]).not.toHaveProperty('startedBy');
    expect(platform.mailsTo('refused@example.org').map((mail) => mail.subject)).toEqual(['Ticket: Gone (r1, documentDeleted)']);
  });
});

describe('GET .../actions/{actionId}/runs/{runId}: one run', () => {
  it("acts as its owner the member: a document only the owner's platform-owner standing could read is not found, and nothing runs", async () => {
    const root = await platform.signIn('root', { platformOwner: true });
    const projectId = await platform.projectWithType('owner', 'tickets', [{ userId: 'root' }]);
    const action = await platform.createAction(projectId, root, mailOnDelete('platform-owner@example.org'));
    const open = await createDocument(projectId, 'tickets', { title: 'Open' });
    const hidden = await createDocument(projectId, 'tickets', { title: 'Owner only', access: { read: { userIds: ['owner'] } } });
    // The platform owner reads it through the API: that standing is theirs, not their action's.
    expect((await platform.call('GET', `/api/projects/${projectId}/types/tickets/data/${hidden.id}`, { token: root })).status).toBe(200);
    const refused = await platform.call('POST', runsPath(projectId, action.id), { token: root, body: { typeId: 'tickets', documentId: hidden.id } });
    expect(refused).toMatchObject({ status: 404, body: { code: 'ACTIONS_DOCUMENT_NOT_FOUND' } });
    expect((await platform.call('POST', runsPath(projectId, action.id), { token: root, body: { typeId: 'tickets', documentId: open.id } })).status).toBe(202);
    await platform.runsOf(projectId, action.id, root, 1);
    expect(platform.mailsTo('platform-owner@example.org').map((mail) => mail.subject)).toEqual(['Ticket: Open (r0, documentCreated)']);
  });

  it('answers the run by hand as it goes, then with its blocks, as the list shows it', async () => {
    const projectId = await platform.projectWithType('owner', 'tickets');
    const action = await platform.createAction(projectId, owner, mailOnDelete('one-run@example.org'));
    const ticket = await createDocument(projectId, 'tickets', { title: 'Polled' });
    const started = await platform.call('POST', runsPath(projectId, action.id), { token: owner, body: { typeId: 'tickets', documentId: ticket.id } });
    const runPath = `${runsPath(projectId, action.id)}/${started.body.id}`;
    await vi.waitFor(async () => expect((await platform.call('GET', runPath, { token: owner })).body.status).toBe('succeeded'), { timeout: 5_000, interval: 20 });
    const [listed] = await platform.runsOf(projectId, action.id, owner, 1);
    expect((await platform.call('GET', runPath, { token: owner })).body).toEqual(listed);
    expect(listed).toMatchObject({ id: started.body.id, startedBy: 'owner', blocks: [{ blockId: 'mail', status: 'succeeded' }] });
  });

  it("is not found for another action's run, a run on a document the caller may not read, an unknown id, or outside the project", async () => {
    const projectId = await platform.projectWithType('owner', 'tickets', [{ userId: 'member' }]);
    const action = await platform.createAction(projectId, owner, mailOnDelete('hidden-run@example.org'));
    const other = await platform.createAction(projectId, owner, mailOnDelete('other-run@example.org'));
    const hidden = await createDocument(projectId, 'tickets', { title: 'Owner only', access: { read: { userIds: ['owner'] } } });
    const started = await platform.call('POST', runsPath(projectId, action.id), { token: owner, body: { typeId: 'tickets', documentId: hidden.id } });
    await platform.runsOf(projectId, action.id, owner, 1);
    const get = (token: string | undefined, actionId: string, runId: string) => platform.call('GET', `${runsPath(projectId, actionId)}/${runId}`, { token });

    expect((await get(owner, action.id, started.body.id)).status).toBe(200);
    expect(await get(member, action.id, started.body.id)).toMatchObject({ status: 404, body: { code: 'ACTIONS_RUN_NOT_FOUND' } });
    expect(await get(owner, other.id, started.body.id)).toMatchObject({ status: 404, body: { code: 'ACTIONS_RUN_NOT_FOUND' } });
    expect(await get(owner, action.id, 'no-such-run')).toMatchObject({ status: 404, body: { code: 'ACTIONS_RUN_NOT_FOUND' } });
    expect(await get(owner, 'no-such-action', started.body.id)).toMatchObject({ status: 404, body: { code: 'ACTIONS_NOT_FOUND' } });
    expect((await get(await platform.signIn('outsider'), action.id, started.body.id)).status).toBe(404);
    expect((await get(undefined, action.id, started.body.id)).status).toBe(401);
    expect((await get(owner, action.id, 'x'.repeat(65))).status).toBe(400);
  });
});

describe('runs by hand under way at once', () => {
  let limited: ActionsTestPlatform;
  let receiver: Server;
  /** Calls the receiver holds unanswered until answerAll. */
  const held: ServerResponse[] = [];
  let answering = false;
  const answerAll = () => {
    answering = true;
    for (const response of held.splice(0)) response.writeHead(204).end();
  };

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      if (answering) response.writeHead(204).end();
      else held.push(response);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    limited = await startActionsPlatform({ manualRunLimits: { perProject: 2, total: 3 } });
  });
  afterAll(async () => {
    answerAll();
    receiver?.close();
    await limited?.close();
  });

  it('answers 429 with Retry-After past the limit of a project and of the process, records nothing for it, and starts runs again once others end', async () => {
    const token = await limited.signIn('owner');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hold`;
    const targets: Array<{ projectId: string; actionId: string; documentId: string }> = [];
    for (let index = 0; index < 3; index += 1) {
      const projectId = await limited.projectWithType('owner', 'tickets');
      const action = await limited.createAction(projectId, token, { title: 'Call and wait', blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url, retries: 0, timeoutMs: 30_000 } }] });
      const ticket = await limited.call('POST', `/api/projects/${projectId}/types/tickets/data`, { token, body: { title: `Ticket ${index}` } });
      targets.push({ projectId, actionId: action.id, documentId: ticket.body.id });
    }
    const start = (index: number) => {
      const { projectId, actionId, documentId } = targets[index]!;
      return limited.call('POST', runsPath(projectId, actionId), { token, body: { typeId: 'tickets', documentId } });
    };

    expect((await start(0)).status).toBe(202);
    expect((await start(0)).status).toBe(202);
    const perProject = await start(0);
    expect(perProject).toMatchObject({ status: 429, body: { code: 'ACTIONS_TOO_MANY_MANUAL_RUNS_PER_PROJECT', details: { limit: 2, retryAfterSeconds: 5 } } });
    expect(perProject.headers.get('retry-after')).toBe('5');
    expect((await start(1)).status).toBe(202);
    const inProcess = await start(2);
    expect(inProcess).toMatchObject({ status: 429, body: { code: 'ACTIONS_TOO_MANY_MANUAL_RUNS', details: { limit: 3, retryAfterSeconds: 5 } } });
    expect(inProcess.headers.get('retry-after')).toBe('5');

    answerAll();
    const finished = await limited.runsOf(targets[0]!.projectId, targets[0]!.actionId, token, 2);
    expect(finished.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);
    expect((await limited.call('GET', runsPath(targets[0]!.projectId, targets[0]!.actionId), { token })).body.total).toBe(2);
    expect((await limited.call('GET', runsPath(targets[2]!.projectId, targets[2]!.actionId), { token })).body.total).toBe(0);
    // A run frees its place as it ends.
    await vi.waitFor(async () => expect((await start(2)).status).toBe(202), { timeout: 5_000, interval: 20 });
    expect(await limited.runsOf(targets[2]!.projectId, targets[2]!.actionId, token, 1)).toMatchObject([{ status: 'succeeded' }]);
  });
});
