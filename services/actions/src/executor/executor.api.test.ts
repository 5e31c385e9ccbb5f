import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { verifyWebhookSignature } from '../domain/webhook-signature';
import { startActionsPlatform, WEBHOOK_SECRET, type ActionsTestPlatform } from '../testing/actions-test-platform';
import { RUNS_COLLECTION } from './run-store';

interface Received {
  path: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

let platform: ActionsTestPlatform;
let receiver: Server;
let hookBase: string;
const received: Received[] = [];
let owner: string;
let member: string;

/** Answers so far per /flaky?key=..., which fails twice (503) before it answers. */
const flakyCalls = new Map<string, number>();

/** When each request reached the receiver (ms), in order. */
const arrivals: Array<{ path: string; at: number }> = [];

/** A real local HTTP server standing in for webhook receivers: /ok, /fail, /slow, /flaky, /later, /bad, /forge. */
async function startReceiver(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body, headers: request.headers });
      arrivals.push({ path: request.url ?? '', at: Date.now() });
      if (request.url?.startsWith('/fail')) return void response.writeHead(500).end('broken');
      if (request.url?.startsWith('/slow')) return void setTimeout(() => response.writeHead(200).end('late'), 1_500);
      if (request.url?.startsWith('/bad')) return void response.writeHead(400).end('no');
      // A user's own server answering content of their choosing, e.g. naming another project.
      if (request.url?.startsWith('/forge')) return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ projectId: 'someone-else', paid: true }));
      if (request.url?.startsWith('/flaky')) {
        const calls = (flakyCalls.get(request.url) ?? 0) + 1;
        flakyCalls.set(request.url, calls);
        if (calls <= 2) return void response.writeHead(503, { 'retry-after': '0' }).end('busy');
      }
      // Busy at first: asks for a second's wait, as delay-seconds (?form=seconds) or an HTTP-date two seconds on (?form=date).
      if (request.url?.startsWith('/later') && arrivals.filter((arrival) => arrival.path === request.url).length === 1) {
        const wait = request.url.includes('form=date') ? new Date(Date.now() + 2_000).toUTCString() : '1';
        return void response.writeHead(503, { 'retry-after': wait }).end('busy');
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ accepted: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  platform = await startActionsPlatform({ maxDepth: 3 });
  receiver = await startReceiver();
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  owner = await platform.signIn('owner');
  member = await platform.signIn('member');
});
afterAll(async () => {
  receiver?.close();
  await platform?.close();
});

async function createDocument(projectId: string, typeId: string, body: Record<string, unknown>, token = owner) {
  const response = await platform.call('POST', `/api/projects/${projectId}/types/${typeId}/data`, { token, body });
  expect(response.status).toBe(201);
  return response.body;
}

/** The project's webhook signing key, as its owner reads it from the actions list. */
async function webhookKey(projectId: string): Promise<string> {
  const listed = await platform.call('GET', `/api/projects/${projectId}/actions`, { token: owner });
  expect(listed.body.webhookKey).toMatch(/^[0-9a-f]{64}$/);
  return listed.body.webhookKey;
}

/** Whether a delivery verifies with `key` for `projectId` (what a receiver checks). */
function verifies(delivery: Received, key: string, projectId: string): boolean {
  return verifyWebhookSignature(key, projectId, Number(delivery.headers['x-platform-timestamp']), delivery.body, String(delivery.headers['x-platform-signature']));
}

const trigger = (triggerName: string, typeId?: string) => ({ id: triggerName, triggerName, ...(typeId ? { configuration: { typeId } } : {}) });

describe('blocks', () => {
  it('call-webhook tries a failure that may pass again, naming one delivery signed anew each time, and not a refusal', async () => {
    const projectId = await platform.projectWithType('owner', 'deliveries');
    const action = await platform.createAction(projectId, owner, {
      title: 'Deliver',
      triggers: [trigger('documentCreated', 'deliveries')],
      blocks: [
        { id: 'flaky', blockName: 'call-webhook', configuration: { url: `${hookBase}/flaky?key=${projectId}` } },
        { id: 'refused', blockName: 'call-webhook', configuration: { url: `${hookBase}/bad?key=${projectId}` } },
        { id: 'once', blockName: 'call-webhook', configuration: { url: `${hookBase}/fail?key=${projectId}`, retries: 0 } },
      ],
    });
    await createDocument(projectId, 'deliveries', { n: 1 });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run.blocks.map((block: { blockId: string; status: string }) => `${block.blockId}:${block.status}`)).toEqual(['flaky:succeeded', 'refused:failed', 'once:failed']);
    expect(run.blocks[0].summary).toMatchObject({ status: 200, attempts: 3 });
    expect(run.blocks[1].error.message).toBe(`${hookBase}/bad answered 400`);
    expect(run.blocks[2].error.message).toBe(`${hookBase}/fail answered 500`);

    const calls = (path: string) => received.filter((call) => call.path === `/${path}?key=${projectId}`);
    expect([calls('flaky').length, calls('bad').length, calls('fail').length]).toEqual([3, 1, 1]);
    const flaky = calls('flaky');
    expect(flaky.map((call) => call.headers['x-platform-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(flaky.map((call) => call.headers['x-platform-delivery']))).toEqual(new Set([`${run.id}.flaky`]));
    const key = await webhookKey(projectId);
    for (const call of flaky) expect(verifies(call, key, projectId)).toBe(true);
  });

  it("call-webhook waits as long as a busy receiver's Retry-After asks, in seconds or as an HTTP-date", async () => {
    const projectId = await platform.projectWithType('owner', 'patient');
    const action = await platform.createAction(projectId, owner, {
      title: 'Deliver patiently',
      triggers: [trigger('documentCreated', 'patient')],
      blocks: ['seconds', 'date'].map((form) => ({ id: form, blockName: 'call-webhook', configuration: { url: `${hookBase}/later?form=${form}&key=${projectId}` } })),
    });
    await createDocument(projectId, 'patient', { n: 1 });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run.blocks.map((block: { blockId: string; status: string; summary: { attempts: number } }) => [block.blockId, block.status, block.summary.attempts])).toEqual([
      ['seconds', 'succeeded', 2],
      ['date', 'succeeded', 2],
    ]);
    // The tests' retry delay is 10 ms: only the receiver's answer makes the block wait about a second
    // (an HTTP-date counts whole seconds, so two seconds on is one to two seconds away).
    for (const form of ['seconds', 'date']) {
      const [first, second] = arrivals.filter((arrival) => arrival.path === `/later?form=${form}&key=${projectId}`);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
    }
  });

  it('send-mail writes the mail to the log with placeholders filled', async () => {
    const projectId = await platform.projectWithType('owner', 'tickets');
    const action = await platform.createAction(projectId, owner, {
      title: 'Mail on new ticket',
      triggers: [trigger('documentCreated', 'tickets')],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'support@example.org', subject: 'Ticket: {{data.document.title}}', text: 'By {{data.change.userId}}' } }],
    });
    await createDocument(projectId, 'tickets', { title: 'Printer on fire' });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run).toMatchObject({ status: 'succeeded', triggerName: 'documentCreated', typeId: 'tickets', depth: 0, blocks: [{ blockId: 'mail', status: 'succeeded', summary: { to: 'support@example.org' } }] });
    expect(platform.mailsTo('support@example.org')).toEqual([{ to: 'support@example.org', subject: 'Ticket: Printer on fire', text: 'By owner' }]);
  });

  it('send-mail and update-database fail with ACTIONS_TEMPLATE_TOO_LARGE once filling their placeholders passes 1 MiB, and send or write nothing', async () => {
    const projectId = await platform.projectWithType('owner', 'essays');
    // 200 placeholders (the most a template may hold) of a 6,000-character field: 1.2 million characters.
    const copies = '{{data.document.body}}'.repeat(200);
    const action = await platform.createAction(projectId, owner, {
      title: 'Multiply the essay',
      triggers: [trigger('documentCreated', 'essays')],
      blocks: [
        { id: 'mail', blockName: 'send-mail', configuration: { to: 'essays@example.org', subject: 'Essay', text: copies } },
        { id: 'copy', blockName: 'update-database', configuration: { modifier: { $set: { copies } } } },
      ],
    });
    const essay = await createDocument(projectId, 'essays', { body: 'x'.repeat(6_000) });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run).toMatchObject({
      status: 'failed',
      blocks: [
        { blockId: 'mail', status: 'failed', error: { code: 'ACTIONS_TEMPLATE_TOO_LARGE', message: expect.stringContaining('1048576 characters') } },
        { blockId: 'copy', status: 'failed', error: { code: 'ACTIONS_TEMPLATE_TOO_LARGE' } },
      ],
    });
    expect(platform.mailsTo('essays@example.org')).toEqual([]);
    expect((await platform.call('GET', `/api/projects/${projectId}/types/essays/data/${essay.id}`, { token: owner })).body).toMatchObject({ revision: 0 });
  });

  it('update-database writes as the action owner with history, and respects RLS and baseRevision', async () => {
    const projectId = await platform.projectWithType('owner', 'orders', [{ userId: 'member' }]);
    const action = await platform.createAction(projectId, member, {
      title: 'Stamp orders',
      triggers: [trigger('documentCreated', 'orders')],
      blocks: [{ id: 'stamp', blockName: 'update-database', configuration: { modifier: { $set: { stamped: true, stampedItem: 'item {{data.document.item}}' } } } }],
    });
    const open = await createDocument(projectId, 'orders', { item: 'open' });
    const locked = await createDocument(projectId, 'orders', { item: 'locked', access: { update: { userIds: ['owner'] } } });
    const runs = await platform.runsOf(projectId, action.id, member, 2);
    const byDocument = Object.fromEntries(runs.map((run) => [run.documentId, run]));
    expect(byDocument[open.id]).toMatchObject({ status: 'succeeded', blocks: [{ status: 'succeeded', summary: { typeId: 'orders', documentId: open.id, revision: 1 } }] });
    expect(byDocument[locked.id]).toMatchObject({ status: 'failed', blocks: [{ status: 'failed', error: { code: 'DATA_FORBIDDEN' } }] });

    const stamped = await platform.call('GET', `/api/projects/${projectId}/types/orders/data/${open.id}?includeChanges=true`, { token: owner });
    expect(stamped.body).toMatchObject({ stamped: true, stampedItem: 'item open', revision: 1 });
    expect(stamped.body.changes[1]).toMatchObject({ userId: 'member', baseRevision: 0, modifier: { $set: { stamped: true, stampedItem: 'item open' } } });
    expect((await platform.call('GET', `/api/projects/${projectId}/types/orders/data/${locked.id}`, { token: owner })).body.stamped).toBeUndefined();
  });

  it('update-database answers the same error for a document that does not exist and one its owner may not read', async () => {
    const projectId = await platform.projectWithType('owner', 'jobs', [{ userId: 'member' }]);
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id: 'vault', name: 'vault' } })).status).toBe(201);
    const hidden = await createDocument(projectId, 'vault', { code: 'x', access: { read: { userIds: ['owner'] } } });
    const stamp = (id: string, documentId: string) => ({ id, blockName: 'update-database', configuration: { typeId: 'vault', documentId, modifier: { $set: { touched: true } } } });
    const action = await platform.createAction(projectId, member, {
      title: 'Probe the vault',
      triggers: [trigger('documentCreated', 'jobs')],
      blocks: [stamp('hidden', hidden.id), stamp('missing', 'no-such-document')],
    });
    await createDocument(projectId, 'jobs', {});
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    const errors = run.blocks.map((block: { error: { code: string; message: string } }) => ({ ...block.error, message: block.error.message.replace(/^vault\/[^:]+/, 'vault/<id>') }));
    expect(errors).toEqual([
      { code: 'DATA_ENTITY_NOT_FOUND', message: 'vault/<id>: Entity not found' },
      { code: 'DATA_ENTITY_NOT_FOUND', message: 'vault/<id>: Entity not found' },
    ]);
  });

  it('update-database with a stale baseRevision records the conflict and changes nothing', async () => {
    const projectId = await platform.projectWithType('owner', 'notes');
    const action = await platform.createAction(projectId, owner, {
      title: 'Stale write',
      triggers: [trigger('documentUpdated', 'notes')],
      blocks: [{ id: 'w', blockName: 'update-database', configuration: { modifier: { $set: { title: 'from action' } }, baseRevision: 0 } }],
    });
    const note = await createDocument(projectId, 'notes', { title: 'first' });
    await platform.call('PATCH', `/api/projects/${projectId}/types/notes/data/${note.id}`, { token: owner, body: { modifier: { $set: { title: 'second' } }, baseRevision: 0 } });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run.blocks[0]).toMatchObject({ status: 'failed', error: { code: 'DATA_REVISION_CONFLICT' } });
    expect((await platform.call('GET', `/api/projects/${projectId}/types/notes/data/${note.id}`, { token: owner })).body).toMatchObject({ title: 'second', revision: 1 });
  });

  it('update-database that changes nothing writes nothing', async () => {
    const projectId = await platform.projectWithType('owner', 'tags');
    const action = await platform.createAction(projectId, owner, {
      title: 'Same value again',
      triggers: [trigger('documentCreated', 'tags')],
      blocks: [{ id: 'w', blockName: 'update-database', configuration: { modifier: { $set: { title: 'same' } } } }],
    });
    const tag = await createDocument(projectId, 'tags', { title: 'same' });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run.blocks[0]).toMatchObject({ status: 'succeeded', summary: { revision: 0 } });
    expect((await platform.call('GET', `/api/projects/${projectId}/types/tags/data/${tag.id}`, { token: owner })).body.revision).toBe(0);
  });

  it("update-database's write carries its depth and chain to its event, and nowhere a reader sees", async () => {
    const projectId = await platform.projectWithType('owner', 'labels');
    const action = await platform.createAction(projectId, owner, {
      title: 'Stamp labels',
      triggers: [trigger('documentCreated', 'labels')],
      blocks: [{ id: 'w', blockName: 'update-database', configuration: { modifier: { $set: { stamped: true } } } }],
    });
    const events: Array<Record<string, any>> = [];
    await platform.context.bus.subscribe({ durable: `depth-${projectId}`, filter: `platform.docs.${projectId}.labels.>`, handler: async (message) => void events.push(message.data as Record<string, any>) });
    const label = await createDocument(projectId, 'labels', { title: 'x' });
    await platform.runsOf(projectId, action.id, owner, 1);
    await expect.poll(() => events.length).toBe(2);
    // The person's write carries no depth; the action's carries 1 and the chain the person's event
    // started (that event's id), beside its change, not in it.
    expect(events.map((event) => [event.actionDepth, event.actionChain])).toEqual([
      [undefined, undefined],
      [1, `${events[0]!.collection}/${label.id}/0`],
    ]);
    for (const event of events) expect(Object.keys(event.change).sort()).toEqual(['baseRevision', 'modifier', 'timestamp', 'userId']);
    const read = await platform.call('GET', `/api/projects/${projectId}/types/labels/data/${label.id}?includeChanges=true`, { token: owner });
    expect(read.body).toMatchObject({ stamped: true, revision: 1 });
    for (const change of read.body.changes) expect(Object.keys(change).sort()).toEqual(['baseRevision', 'modifier', 'timestamp', 'userId']);
    expect(JSON.stringify(read.body)).not.toMatch(/actionDepth|actionChain/);
  });

  it('call-webhook posts signed JSON to a real HTTP server and passes its answer on', async () => {
    const projectId = await platform.projectWithType('owner', 'leads');
    const action = await platform.createAction(projectId, owner, {
      title: 'Forward leads',
      triggers: [trigger('documentCreated', 'leads')],
      blocks: [
        { id: 'hook', blockName: 'call-webhook', configuration: { url: `${hookBase}/ok?lead=1` } },
        { id: 'check', blockName: 'conditional-logic', configuration: { path: 'accepted', operator: 'equals', value: true } },
      ],
      connections: [{ sourceBlockId: 'hook', sourceSocketName: 'response', targetBlockId: 'check', targetSocketName: 'input' }],
    });
    const lead = await createDocument(projectId, 'leads', { name: 'Ada' });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run.blocks).toMatchObject([
      { blockId: 'hook', status: 'succeeded', summary: { status: 200 } },
      { blockId: 'check', status: 'succeeded', summary: { result: true } },
    ]);
    const delivery = received.find((r) => r.path === '/ok?lead=1' && r.body.includes(lead.id)) as Received;
    const body = JSON.parse(delivery.body);
    expect(body).toMatchObject({ triggerName: 'documentCreated', data: { projectId, typeId: 'leads', documentId: lead.id, document: { name: 'Ada' } } });
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-platform-project-id']).toBe(projectId);
    expect(verifies(delivery, await webhookKey(projectId), projectId)).toBe(true);
  });

  it("call-webhook signs with the project's key and binds the project: one project's delivery verifies nowhere else, nor with the global secret", async () => {
    // Block a's answer (a server of the user's choosing) becomes block b's body: content they pick.
    const chained = (projectId: string) => ({
      title: 'Relay',
      triggers: [trigger('documentCreated', 'relays')],
      blocks: [
        { id: 'a', blockName: 'call-webhook', configuration: { url: `${hookBase}/forge?key=${projectId}` } },
        { id: 'b', blockName: 'call-webhook', configuration: { url: `${hookBase}/ok?relay=${projectId}` } },
      ],
      connections: [{ sourceBlockId: 'a', sourceSocketName: 'response', targetBlockId: 'b', targetSocketName: 'body' }],
    });
    const mine = await platform.projectWithType('owner', 'relays');
    const theirs = await platform.projectWithType('owner', 'relays');
    for (const projectId of [mine, theirs]) {
      const action = await platform.createAction(projectId, owner, chained(projectId));
      await createDocument(projectId, 'relays', {});
      expect((await platform.runsOf(projectId, action.id, owner, 1))[0].status).toBe('succeeded');
    }
    const delivery = (projectId: string) => received.find((r) => r.path === `/ok?relay=${projectId}`) as Received;
    const [ours, other] = [delivery(mine), delivery(theirs)];
    expect(ours.body).toBe(other.body);
    expect(JSON.parse(ours.body)).toEqual({ projectId: 'someone-else', paid: true });
    expect(ours.headers['x-platform-project-id']).toBe(mine);

    const [ourKey, otherKey] = [await webhookKey(mine), await webhookKey(theirs)];
    expect(ourKey).not.toBe(otherKey);
    expect(verifies(ours, ourKey, mine)).toBe(true);
    expect(verifies(other, otherKey, theirs)).toBe(true);
    // Replayed to the other project's receiver, or claimed for it, it does not verify.
    expect(verifies(ours, otherKey, theirs)).toBe(false);
    expect(verifies(ours, ourKey, theirs)).toBe(false);
    expect(verifies(ours, otherKey, mine)).toBe(false);
    // The platform-wide secret signs nothing: neither in the new form nor the former "<timestamp>.<body>".
    expect(verifies(ours, WEBHOOK_SECRET, mine)).toBe(false);
    const former = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(`${ours.headers['x-platform-timestamp']}.${ours.body}`).digest('hex')}`;
    expect(ours.headers['x-platform-signature']).not.toBe(former);
  });

  it("call-webhook with its own secret signs with it, the project bound alike", async () => {
    const projectId = await platform.projectWithType('owner', 'keyed');
    const secret = 'a-block-secret-of-its-own';
    const action = await platform.createAction(projectId, owner, {
      title: 'Keyed',
      triggers: [trigger('documentCreated', 'keyed')],
      blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url: `${hookBase}/ok?keyed=${projectId}`, secret } }],
    });
    await createDocument(projectId, 'keyed', {});
    await platform.runsOf(projectId, action.id, owner, 1);
    const delivery = received.find((r) => r.path === `/ok?keyed=${projectId}`) as Received;
    expect(verifies(delivery, secret, projectId)).toBe(true);
    expect(verifies(delivery, await webhookKey(projectId), projectId)).toBe(false);
    expect(verifies(delivery, secret, 'another-project')).toBe(false);
  });

  it('call-webhook fails on a timeout and on an error status', async () => {
    const projectId = await platform.projectWithType('owner', 'pings');
    const action = await platform.createAction(projectId, owner, {
      title: 'Slow and broken',
      triggers: [trigger('documentCreated')],
      blocks: [
        { id: 'slow', blockName: 'call-webhook', configuration: { url: `${hookBase}/slow`, timeoutMs: 200 } },
        { id: 'broken', blockName: 'call-webhook', configuration: { url: `${hookBase}/fail` } },
      ],
    });
    await createDocument(projectId, 'pings', {});
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run.blocks).toMatchObject([
      { blockId: 'slow', status: 'failed', error: { code: 'ACTIONS_WEBHOOK_TIMEOUT', message: expect.stringContaining('200 ms') } },
      { blockId: 'broken', status: 'failed', error: { code: 'ACTIONS_WEBHOOK_FAILED', message: expect.stringContaining('answered 500') } },
    ]);
    expect(run.blocks[0].durationMs).toBeLessThan(1_200);
  });

  it('conditional-logic runs the true branch and skips the false one', async () => {
    const projectId = await platform.projectWithType('owner', 'alerts');
    const action = await platform.createAction(projectId, owner, {
      title: 'Route alerts',
      triggers: [trigger('documentCreated')],
      blocks: [
        { id: 'urgent', blockName: 'conditional-logic', configuration: { path: 'data.document.level', operator: 'greaterThan', value: 3 } },
        { id: 'page', blockName: 'send-mail', configuration: { to: 'pager@example.org', subject: 'urgent {{inputs.data.data.document.level}}' } },
        { id: 'digest', blockName: 'send-mail', configuration: { to: 'digest@example.org', subject: 'later' } },
      ],
      connections: [
        { sourceBlockId: 'urgent', sourceSocketName: 'true', targetBlockId: 'page', targetSocketName: 'data' },
        { sourceBlockId: 'urgent', sourceSocketName: 'false', targetBlockId: 'digest', targetSocketName: 'data' },
      ],
    });
    await createDocument(projectId, 'alerts', { level: 5 });
    const [run] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(run.blocks).toMatchObject([
      { blockId: 'urgent', status: 'succeeded', summary: { result: true } },
      { blockId: 'page', status: 'succeeded' },
      { blockId: 'digest', status: 'skipped' },
    ]);
    expect(platform.mailsTo('pager@example.org').map((m) => m.subject)).toEqual(['urgent 5']);
    expect(platform.mailsTo('digest@example.org')).toEqual([]);
  });
});

describe('the executor', () => {
  it('runs blocks in topological order, records a failure and keeps going, then runs the next action', async () => {
    const projectId = await platform.projectWithType('owner', 'jobs');
    const first = await platform.createAction(projectId, owner, {
      title: 'First',
      triggers: [trigger('documentCreated', 'jobs')],
      blocks: [
        { id: 'last', blockName: 'call-webhook', configuration: { url: `${hookBase}/ok?step=last` } },
        { id: 'middle', blockName: 'call-webhook', configuration: { url: `${hookBase}/fail?step=middle` } },
        { id: 'start', blockName: 'call-webhook', configuration: { url: `${hookBase}/ok?step=start` } },
      ],
      connections: [
        { sourceBlockId: 'start', sourceSocketName: 'response', targetBlockId: 'middle', targetSocketName: 'body' },
        { sourceBlockId: 'middle', sourceSocketName: 'response', targetBlockId: 'last', targetSocketName: 'body' },
      ],
    });
    const second = await platform.createAction(projectId, owner, {
      title: 'Second',
      triggers: [trigger('documentCreated', 'jobs')],
      blocks: [{ id: 'after', blockName: 'call-webhook', configuration: { url: `${hookBase}/ok?step=second-action` } }],
    });
    const ignored = await platform.createAction(projectId, owner, { title: 'Other type', triggers: [trigger('documentCreated', 'elsewhere')] });
    const before = received.length;
    const created = await createDocument(projectId, 'jobs', { n: 1 });

    const [run] = await platform.runsOf(projectId, first.id, owner, 1);
    expect(run.status).toBe('failed');
    // When the change was written, so that how long the run waited for its event shows.
    expect(run.changedAt).toBe(created.createdAt);
    expect(run.startedAt).toBeGreaterThanOrEqual(run.changedAt);
    expect(run.blocks.map((b: { blockId: string; status: string }) => `${b.blockId}:${b.status}`)).toEqual(['start:succeeded', 'middle:failed', 'last:succeeded']);
    // A 500 may pass: tried three times in all (the default two retries), then failed.
    expect(run.blocks[1].error).toMatchObject({ code: 'ACTIONS_WEBHOOK_FAILED', message: expect.stringContaining('answered 500 (attempt 3 of 3)') });
    for (const block of run.blocks) expect(block).toMatchObject({ startedAt: expect.any(Number), durationMs: expect.any(Number) });
    expect((await platform.runsOf(projectId, second.id, owner, 1))[0]).toMatchObject({ status: 'succeeded' });
    expect(received.slice(before).map((r) => r.path.split('=')[1])).toEqual(['start', 'middle', 'middle', 'middle', 'last', 'second-action']);
    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${ignored.id}/runs`, { token: owner })).body.total).toBe(0);
  });

  it('runs an action once per event, however often the event is delivered', async () => {
    const projectId = await platform.projectWithType('owner', 'invoices');
    const action = await platform.createAction(projectId, owner, {
      title: 'Once',
      triggers: [trigger('documentCreated')],
      blocks: [{ id: 'mail', blockName: 'send-mail', configuration: { to: 'once@example.org', subject: 'invoice' } }],
    });
    const events: unknown[] = [];
    await platform.context.bus.subscribe({ durable: `copy-${projectId}`, filter: `platform.docs.${projectId}.invoices.>`, handler: async (message) => void events.push(message.data) });
    await createDocument(projectId, 'invoices', { total: 10 });
    await platform.runsOf(projectId, action.id, owner, 1);
    await expect.poll(() => events.length).toBe(1);
    for (let i = 0; i < 3; i += 1) {
      // A redelivery as JetStream makes it after a lost ack: the same event again (new bus id, so the bus does not drop it).
      await platform.context.bus.publish(`platform.docs.${projectId}.invoices.created`, events[0], { msgId: `redelivery-${i}-${projectId}` });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: owner })).body.total).toBe(1);
    expect(platform.mailsTo('once@example.org')).toHaveLength(1);
  });

  it('stops an action that triggers itself at the depth limit, with a recorded error', async () => {
    const projectId = await platform.projectWithType('owner', 'counters');
    const action = await platform.createAction(projectId, owner, {
      title: 'Count my own updates',
      triggers: [trigger('documentUpdated', 'counters')],
      blocks: [{ id: 'inc', blockName: 'update-database', configuration: { modifier: { $inc: { n: 1 } } } }],
    });
    const counter = await createDocument(projectId, 'counters', { n: 0 });
    await platform.call('PATCH', `/api/projects/${projectId}/types/counters/data/${counter.id}`, { token: owner, body: { modifier: { $set: { label: 'go' } }, baseRevision: 0 } });
    const runs = await platform.runsOf(projectId, action.id, owner, 4);
    expect(runs.map((run) => [run.depth, run.status])).toEqual([
      [0, 'succeeded'],
      [1, 'succeeded'],
      [2, 'succeeded'],
      [3, 'failed'],
    ]);
    expect(runs[3].error).toMatchObject({ code: 'ACTIONS_LOOP_LIMIT', message: expect.stringContaining('limit 3') });
    expect(runs[3].blocks).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: owner })).body.total).toBe(4);
    expect((await platform.call('GET', `/api/projects/${projectId}/types/counters/data/${counter.id}`, { token: owner })).body).toMatchObject({ n: 3, revision: 4 });
  });

  it('does not run an action for a document its owner may not read', async () => {
    const projectId = await platform.projectWithType('owner', 'secrets', [{ userId: 'member' }]);
    const action = await platform.createAction(projectId, member, {
      title: 'Exfiltrate',
      triggers: [trigger('documentCreated')],
      blocks: [{ id: 'hook', blockName: 'call-webhook', configuration: { url: `${hookBase}/ok?leak=1` } }],
    });
    await createDocument(projectId, 'secrets', { pin: '1234', access: { read: { userIds: ['owner'] } } });
    await createDocument(projectId, 'secrets', { pin: 'public' });
    const runs = await platform.runsOf(projectId, action.id, member, 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toHaveLength(1);
    expect(received.filter((r) => r.path === '/ok?leak=1').map((r) => JSON.parse(r.body).data.document.pin)).toEqual(['public']);
  });

  it("shows a reader of the action only the runs on documents the reader may read, though the owner's runs cover more", async () => {
    const projectId = await platform.projectWithType('owner', 'notes', [{ userId: 'member' }]);
    const action = await platform.createAction(projectId, owner, { title: 'Count notes', triggers: [trigger('documentCreated')], blocks: [] });
    const secret = await createDocument(projectId, 'notes', { text: 'owner only', access: { read: { userIds: ['owner'] } } });
    const open = await createDocument(projectId, 'notes', { text: 'everyone' });
    expect((await platform.runsOf(projectId, action.id, owner, 2)).map((run) => run.documentId).sort()).toEqual([secret.id, open.id].sort());

    const asMember = await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: member });
    expect(asMember.status).toBe(200);
    expect(asMember.body.items.map((run: { documentId: string }) => run.documentId)).toEqual([open.id]);
    expect(JSON.stringify(asMember.body)).not.toContain(secret.id);
  });

  it('redacts block results that involve a document the reader may not read, also where its contents flowed on', async () => {
    const projectId = await platform.projectWithType('owner', 'orders', [{ userId: 'member' }]);
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { id: 'vault', name: 'vault' } })).status).toBe(201);
    const hidden = await createDocument(projectId, 'vault', { code: 'vault-code-4711', n: 0, access: { read: { userIds: ['owner'] } } });
    const action = await platform.createAction(projectId, owner, {
      title: 'Count orders in the vault',
      triggers: [trigger('documentCreated', 'orders')],
      blocks: [
        { id: 'stamp', blockName: 'update-database', configuration: { typeId: 'vault', documentId: hidden.id, modifier: { $inc: { n: 1 } } } },
        { id: 'tell', blockName: 'send-mail', configuration: { to: 'vault@example.org', subject: 'Vault {{inputs.data.code}} at {{inputs.data.n}}' } },
        { id: 'plain', blockName: 'send-mail', configuration: { to: 'orders@example.org', subject: 'New order' } },
        { id: 'miss', blockName: 'update-database', configuration: { typeId: 'vault', documentId: 'no-such-document', modifier: { $inc: { n: 1 } } } },
      ],
      connections: [{ sourceBlockId: 'stamp', sourceSocketName: 'document', targetBlockId: 'tell', targetSocketName: 'data' }],
    });
    await createDocument(projectId, 'orders', { item: 'chair' }, member);
    const [asOwner] = await platform.runsOf(projectId, action.id, owner, 1);
    expect(asOwner.blocks.map((block: { blockId: string; summary?: unknown }) => [block.blockId, block.summary])).toEqual([
      ['stamp', { typeId: 'vault', documentId: hidden.id, revision: 1 }],
      ['tell', { to: 'vault@example.org', subject: 'Vault vault-code-4711 at 1' }],
      ['plain', { to: 'orders@example.org', subject: 'New order' }],
      ['miss', undefined],
    ]);
    expect(JSON.stringify(asOwner)).not.toContain('documents');

    const asMember = (await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: member })).body.items[0];
    expect(asMember.blocks).toEqual([
      expect.objectContaining({ blockId: 'stamp', status: 'succeeded', summary: { redacted: true } }),
      expect.objectContaining({ blockId: 'tell', status: 'succeeded', summary: { redacted: true } }),
      expect.objectContaining({ blockId: 'plain', status: 'succeeded', summary: { to: 'orders@example.org', subject: 'New order' } }),
      expect.objectContaining({ blockId: 'miss', status: 'failed', error: { code: 'ACTIONS_REDACTED', message: 'Hidden: this block used a document you may not read' } }),
    ]);
    expect(JSON.stringify(asMember)).not.toMatch(new RegExp(`${hidden.id}|vault-code|no-such-document|documents`));
  });

  it('redacts every block result of a run recorded before block provenance when it holds an update-database block', async () => {
    const projectId = await platform.projectWithType('owner', 'orders', [{ userId: 'member' }]);
    const open = await createDocument(projectId, 'orders', { item: 'desk' });
    const hidden = await createDocument(projectId, 'orders', { code: 'legacy-code-0815', access: { read: { userIds: ['owner'] } } });
    const action = await platform.createAction(projectId, owner, { title: 'Recorded long ago', triggers: [trigger('documentDeleted', 'orders')], blocks: [] });
    // As the executor stored runs before it recorded each block's documents.
    const legacyRun = (id: string, startedAt: number, blocks: unknown[]) => ({
      id, projectId, actionId: action.id, eventId: `tenant-${projectId}-orders/${open.id}/0`, triggerName: 'documentCreated', typeId: 'orders', documentId: open.id,
      depth: 0, status: 'succeeded', startedAt, finishedAt: startedAt + 5, durationMs: 5, blocks,
    });
    const block = (blockId: string, blockName: string, summary: Record<string, unknown>) => ({ blockId, blockName, status: 'succeeded', startedAt: 1, durationMs: 1, summary });
    await platform.context.store.collection(RUNS_COLLECTION).insertOne(legacyRun('legacy-touching', 2, [
      block('stamp', 'update-database', { typeId: 'orders', documentId: hidden.id, revision: 1 }),
      block('tell', 'send-mail', { to: 'legacy@example.org', subject: 'Code legacy-code-0815' }),
    ]));
    await platform.context.store.collection(RUNS_COLLECTION).insertOne(legacyRun('legacy-mail-only', 1, [block('mail', 'send-mail', { to: 'legacy@example.org', subject: 'New order' })]));

    const asOwner = (await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: owner })).body.items;
    expect(asOwner.map((run: { blocks: Array<{ summary: unknown }> }) => run.blocks.map((result) => result.summary))).toEqual([
      [{ typeId: 'orders', documentId: hidden.id, revision: 1 }, { to: 'legacy@example.org', subject: 'Code legacy-code-0815' }],
      [{ to: 'legacy@example.org', subject: 'New order' }],
    ]);
    const asMember = await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs`, { token: member });
    expect(asMember.status).toBe(200);
    expect(asMember.body.items.map((run: { blocks: Array<{ summary: unknown }> }) => run.blocks.map((result) => result.summary))).toEqual([
      [{ redacted: true }, { redacted: true }],
      [{ to: 'legacy@example.org', subject: 'New order' }],
    ]);
    expect(JSON.stringify(asMember.body)).not.toMatch(new RegExp(`${hidden.id}|legacy-code|blockDocumentsRecorded`));
  });
});

describe('the SSRF guard (default configuration: no network allowed)', () => {
  let strict: ActionsTestPlatform;
  beforeAll(async () => {
    strict = await startActionsPlatform({ webhookAllowedNetworks: [] });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('refuses loopback, private and link-local targets, by literal address and after DNS resolution', async () => {
    const token = await strict.signIn('owner');
    const projectId = await strict.projectWithType('owner', 'events');
    const port = (receiver.address() as AddressInfo).port;
    const targets = [
      `http://127.0.0.1:${port}/ok`,
      `http://localhost:${port}/ok`,
      `http://[::1]:${port}/ok`,
      'http://10.0.0.7/ok',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:192.168.1.1]/',
      `http://[::127.0.0.1]:${port}/ok`,
      `http://[64:ff9b::127.0.0.1]:${port}/ok`,
    ];
    const blocks = targets.map((url, i) => ({ id: `b${i}`, blockName: 'call-webhook', configuration: { url } }));
    const saved = await strict.call('POST', `/api/projects/${projectId}/actions`, { token, body: { title: 'Reach inside', triggers: [trigger('documentCreated')], blocks } });
    expect(saved.status).toBe(400);
    expect(saved.body.details.problems.map((problem: { field: string }) => problem.field)).toEqual(targets.flatMap((url, i) => (url.includes('localhost') ? [] : [`blocks.${i}.configuration.url`])));
    // Saved before the address check existed: the call itself refuses them too.
    const action = await strict.createAction(projectId, token, { title: 'Reach inside', triggers: [trigger('documentCreated')], blocks: [blocks[1]] });
    await strict.context.store.collection('actions').updateOne({ id: action.id }, { $set: { blocksJson: JSON.stringify(blocks) } });
    const before = received.length;
    const response = await strict.call('POST', `/api/projects/${projectId}/types/events/data`, { token, body: {} });
    expect(response.status).toBe(201);
    const [run] = await strict.runsOf(projectId, action.id, token, 1);
    for (const block of run.blocks) expect(block).toMatchObject({ status: 'failed', error: { code: 'ACTIONS_WEBHOOK_ADDRESS_REFUSED', message: expect.stringContaining('SSRF guard') } });
    expect(run.blocks[1].error.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
    expect(run.blocks[4].error.message).toContain('linkLocal');
    expect(run.blocks[6].error.message).toContain('::7f00:1 is the IPv4-compatible form of 127.0.0.1, a loopback address');
    expect(run.blocks[7].error.message).toContain('64:ff9b::7f00:1 is the NAT64 form of 127.0.0.1, a loopback address');
    expect(received.length).toBe(before);
  });
});
