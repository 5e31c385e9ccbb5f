import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActionsPlatform, type ActionsTestPlatform } from '../testing/actions-test-platform';

let platform: ActionsTestPlatform;
const token: Record<'owner' | 'editor' | 'viewer' | 'stranger', string> = { owner: '', editor: '', viewer: '', stranger: '' };

beforeAll(async () => {
  platform = await startActionsPlatform();
  for (const name of Object.keys(token) as Array<keyof typeof token>) token[name] = await platform.signIn(name);
});
afterAll(async () => {
  await platform?.close();
});

async function project(): Promise<string> {
  return platform.seedProject({ ownerId: 'owner', members: [{ userId: 'editor', permissions: ['editors'] }, { userId: 'viewer' }], access: { update: { userIds: ['owner'] } } });
}

const mailAction = {
  title: 'Tell the team',
  triggers: [{ id: 't1', triggerName: 'documentCreated', configuration: { typeId: 'tasks' } }],
  blocks: [
    { id: 'check', blockName: 'conditional-logic', configuration: { path: 'data.document.urgent', operator: 'truthy' } },
    { id: 'mail', blockName: 'send-mail', configuration: { to: 'team@example.org', subject: 'New: {{data.document.title}}' } },
  ],
  connections: [{ sourceBlockId: 'check', sourceSocketName: 'true', targetBlockId: 'mail', targetSocketName: 'data' }],
};

describe('actions CRUD', () => {
  it('creates, reads, lists, replaces and deletes an action', async () => {
    const projectId = await project();
    const created = await platform.call('POST', `/api/projects/${projectId}/actions`, { token: token.editor, body: mailAction });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...mailAction, projectId, ownerId: 'editor', revision: 0 });
    const id = created.body.id as string;

    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${id}`, { token: token.viewer })).body).toEqual(created.body);
    expect((await platform.call('GET', `/api/projects/${projectId}/actions`, { token: token.viewer })).body.items.map((a: { id: string }) => a.id)).toEqual([id]);

    const replaced = await platform.call('PUT', `/api/projects/${projectId}/actions/${id}`, { token: token.owner, body: { ...mailAction, title: 'Renamed', description: 'now documented' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ title: 'Renamed', description: 'now documented', ownerId: 'owner', revision: 1 });
    const withoutDescription = await platform.call('PUT', `/api/projects/${projectId}/actions/${id}`, { token: token.owner, body: { title: 'Bare' } });
    expect(withoutDescription.body).toMatchObject({ title: 'Bare', triggers: [], blocks: [], connections: [], revision: 2 });
    expect(withoutDescription.body.description).toBeUndefined();

    const deleted = await platform.call('DELETE', `/api/projects/${projectId}/actions/${id}`, { token: token.owner });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deletedAt).toEqual(expect.any(Number));
    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${id}`, { token: token.owner })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}/actions`, { token: token.owner })).body.items).toEqual([]);
  });

  it('pages runs with page and pageSize, and refuses limit (the audit trail\'s name) by name instead of answering the default page', async () => {
    const projectId = await project();
    const id = (await platform.createAction(projectId, token.owner, mailAction)).id;
    const runs = `/api/projects/${projectId}/actions/${id}/runs`;
    expect((await platform.call('GET', `${runs}?page=1&pageSize=10`, { token: token.viewer })).body).toEqual({ items: [], page: 1, pageSize: 10, total: 0 });
    const misnamed = await platform.call('GET', `${runs}?limit=10`, { token: token.viewer });
    expect(misnamed.status).toBe(400);
    expect(misnamed.body.details.issues).toEqual([{ field: 'querystring.limit', message: 'unknown query parameter (this route takes page, pageSize, status)' }]);
  });

  it('lists only the runs of a status when asked (what failed lately), counting them, and refuses a status that is none', async () => {
    const projectId = await project();
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token: token.owner, body: { id: 'tasks', name: 'Tasks' } })).status).toBe(201);
    // The editor's action: it runs with the editor's rights.
    const action = await platform.createAction(projectId, token.editor, {
      title: 'Stamp unless locked',
      triggers: [{ id: 't', triggerName: 'documentCreated', configuration: { typeId: 'tasks' } }],
      blocks: [{ id: 'stamp', blockName: 'update-database', configuration: { modifier: { $set: { stamped: true } } } }],
    });
    const create = (body: Record<string, unknown>) => platform.call('POST', `/api/projects/${projectId}/types/tasks/data`, { token: token.owner, body });
    const open = (await create({ title: 'open' })).body.id;
    // Only the project's owner may update it: the editor's action fails on it.
    const locked = (await create({ title: 'locked', access: { update: { userIds: ['owner'] } } })).body.id;
    await platform.runsOf(projectId, action.id, token.owner, 2);
    const runs = (query: string) => platform.call('GET', `/api/projects/${projectId}/actions/${action.id}/runs${query}`, { token: token.owner });
    expect((await runs('?status=failed')).body).toMatchObject({ total: 1, items: [{ documentId: locked, status: 'failed' }] });
    expect((await runs('?status=succeeded')).body).toMatchObject({ total: 1, items: [{ documentId: open, status: 'succeeded' }] });
    expect((await runs('?status=interrupted')).body).toMatchObject({ total: 0, items: [] });
    expect((await runs('')).body.total).toBe(2);
    const refused = await runs('?status=broken');
    expect(refused.status).toBe(400);
    expect(refused.body.details.issues[0].field).toBe('querystring.status');
  });

  it('answers 404 to non-members and anonymous callers, 401 without a session on the block list', async () => {
    const projectId = await project();
    const id = (await platform.createAction(projectId, token.owner, mailAction)).id;
    for (const path of [`/api/projects/${projectId}/actions`, `/api/projects/${projectId}/actions/${id}`, `/api/projects/${projectId}/actions/${id}/runs`]) {
      expect({ path, status: (await platform.call('GET', path, { token: token.stranger })).status }).toEqual({ path, status: 404 });
    }
    expect((await platform.call('POST', `/api/projects/${projectId}/actions`, { token: token.stranger, body: mailAction })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}/actions`)).status).toBe(401);
    expect((await platform.call('GET', '/api/actions/blocks')).status).toBe(401);
  });

  it('applies RLS per action: hidden without read, 403 without update or delete, access changes need the project permission', async () => {
    const projectId = await project();
    const restricted = await platform.createAction(projectId, token.owner, { ...mailAction, access: { read: { permission: `${projectId}::editors` }, update: { userIds: ['owner'] }, delete: { userIds: ['owner'] } } });
    const path = `/api/projects/${projectId}/actions/${restricted.id}`;
    expect((await platform.call('GET', path, { token: token.viewer })).status).toBe(404);
    expect((await platform.call('GET', `/api/projects/${projectId}/actions`, { token: token.viewer })).body.items).toEqual([]);
    expect((await platform.call('GET', path, { token: token.editor })).status).toBe(200);
    const put = await platform.call('PUT', path, { token: token.editor, body: { ...mailAction, access: restricted.access } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('ACTIONS_FORBIDDEN');
    expect((await platform.call('DELETE', path, { token: token.editor })).status).toBe(403);

    const open = await platform.createAction(projectId, token.editor, mailAction);
    const grab = await platform.call('PUT', `/api/projects/${projectId}/actions/${open.id}`, { token: token.editor, body: { ...mailAction, access: { update: { userIds: ['editor'] } } } });
    expect(grab.status).toBe(403);
    expect(grab.body.error).toContain('access');
    const setOnCreate = await platform.call('POST', `/api/projects/${projectId}/actions`, { token: token.editor, body: { ...mailAction, access: { read: { userIds: ['editor'] } } } });
    expect(setOnCreate.status).toBe(403);
    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${open.id}`, { token: token.owner })).body.revision).toBe(0);
  });

  it('shows a webhook secret only to callers who may update the action', async () => {
    const projectId = await project();
    const body = {
      title: 'Hook',
      blocks: [{ id: 'w', blockName: 'call-webhook', configuration: { url: 'https://hooks.example.org/in', secret: 'a-very-secret-signing-key' } }],
      access: { update: { userIds: ['owner'] } },
    };
    const action = await platform.createAction(projectId, token.owner, body);
    expect(action.blocks[0].configuration.secret).toBe('a-very-secret-signing-key');
    const seen = await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}`, { token: token.viewer });
    expect(seen.body.blocks[0].configuration).toEqual({ url: 'https://hooks.example.org/in', secret: '[redacted]' });
    expect(JSON.stringify((await platform.call('GET', `/api/projects/${projectId}/actions`, { token: token.viewer })).body)).not.toContain('a-very-secret');
  });

  it('shows a webhook secret of an action without rules only to callers with the project update permission, and keeps it on a PUT of the redacted view', async () => {
    const projectId = await project();
    const hook = { id: 'w', blockName: 'call-webhook', configuration: { url: 'https://hooks.example.org/in', secret: 'a-very-secret-signing-key' } };
    const action = await platform.createAction(projectId, token.editor, { title: 'Open hook', blocks: [hook] });
    expect(action.blocks[0].configuration.secret).toBe('[redacted]');
    for (const reader of [token.editor, token.viewer]) {
      const seen = await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}`, { token: reader });
      expect(seen.body.blocks[0].configuration).toEqual({ url: 'https://hooks.example.org/in', secret: '[redacted]' });
      expect(JSON.stringify((await platform.call('GET', `/api/projects/${projectId}/actions`, { token: reader })).body)).not.toContain('a-very-secret');
    }
    const asOwner = async () => (await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}`, { token: token.owner })).body;
    expect((await asOwner()).blocks[0].configuration.secret).toBe('a-very-secret-signing-key');

    const { id: _id, projectId: _project, ownerId: _owner, revision: _revision, createdAt: _created, updatedAt: _updated, ...asRead } = action;
    const kept = await platform.call('PUT', `/api/projects/${projectId}/actions/${action.id}`, { token: token.viewer, body: { ...asRead, title: 'Renamed hook' } });
    expect(kept.status).toBe(200);
    expect(kept.body.blocks[0].configuration.secret).toBe('[redacted]');
    expect((await asOwner()).blocks[0].configuration).toEqual(hook.configuration);

    const moved = { ...asRead, blocks: [{ ...asRead.blocks[0], configuration: { url: 'https://collector.example.net/in', secret: '[redacted]' } }] };
    const refused = await platform.call('PUT', `/api/projects/${projectId}/actions/${action.id}`, { token: token.viewer, body: moved });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('ACTIONS_INVALID_CONFIGURATION');
    expect(refused.body.error).toContain('Invalid blocks.0.configuration.secret');
    expect(await asOwner()).toMatchObject({ title: 'Renamed hook', revision: 1, blocks: [hook] });
  });

  it("shows the project's webhook key in the actions list only to callers with the project update permission, one key per project", async () => {
    const [projectId, other] = [await project(), await project()];
    const list = (id: string, who: string) => platform.call('GET', `/api/projects/${id}/actions`, { token: who });
    const key = (await list(projectId, token.owner)).body.webhookKey;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect((await list(projectId, token.owner)).body.webhookKey).toBe(key);
    expect((await list(other, token.owner)).body.webhookKey).not.toBe(key);
    for (const member of [token.editor, token.viewer]) {
      const seen = await list(projectId, member);
      expect(seen.status).toBe(200);
      expect(seen.body).not.toHaveProperty('webhookKey');
    }
    expect(await list(projectId, token.stranger)).toMatchObject({ status: 404, body: { code: 'PROJECT_NOT_FOUND' } });
  });
});

describe('validation: 400 naming the problem, nothing stored', () => {
  const block = (id: string, blockName: string, configuration: Record<string, unknown>) => ({ id, blockName, configuration });
  const link = (s: string, ss: string, t: string, ts: string) => ({ sourceBlockId: s, sourceSocketName: ss, targetBlockId: t, targetSocketName: ts });
  const update = (id: string) => block(id, 'update-database', { modifier: { $inc: { n: 1 } } });

  it.each([
    ['no title', { triggers: [] }, 'VALIDATION_FAILED', 'title'],
    ['an empty title', { title: '  ' }, 'VALIDATION_FAILED', 'title'],
    ['an unknown trigger name', { title: 't', triggers: [{ id: 't', triggerName: 'documentRead' }] }, 'VALIDATION_FAILED', 'triggers.0.triggerName'],
    ['an unknown trigger configuration key', { title: 't', triggers: [{ id: 't', triggerName: 'documentCreated', configuration: { schedule: 'daily' } }] }, 'VALIDATION_FAILED', 'triggers.0.configuration'],
    ['an unregistered block', { title: 't', blocks: [block('b', 'print-invoice', {})] }, 'ACTIONS_UNKNOWN_BLOCK', 'blocks.0.blockName: "print-invoice" is not a registered block'],
    ['a bad block configuration', { title: 't', blocks: [block('w', 'call-webhook', { url: 'not a url' })] }, 'ACTIONS_INVALID_CONFIGURATION', 'blocks.0.configuration.url'],
    ['a missing required input', { title: 't', blocks: [block('m', 'send-mail', { subject: 'hi' })] }, 'ACTIONS_MISSING_INPUT', 'blocks.0.configuration.to'],
    ['a socket that does not exist', { title: 't', blocks: [update('a'), update('b')], connections: [link('a', 'document', 'b', 'payload')] }, 'ACTIONS_INVALID_CONNECTION', 'has no socket "payload"'],
    ['a connection from an input', { title: 't', blocks: [update('a'), update('b')], connections: [link('a', 'modifier', 'b', 'modifier')] }, 'ACTIONS_INVALID_CONNECTION', 'is an input'],
    ['a connection into an output', { title: 't', blocks: [update('a'), update('b')], connections: [link('a', 'document', 'b', 'revision')] }, 'ACTIONS_INVALID_CONNECTION', 'is an output'],
    ['incompatible socket types', { title: 't', blocks: [update('a'), update('b')], connections: [link('a', 'revision', 'b', 'documentId')] }, 'ACTIONS_INCOMPATIBLE_SOCKETS', 'a.revision (number) cannot feed b.documentId (string)'],
    [
      'a cycle',
      { title: 't', blocks: [update('a'), update('b')], connections: [link('a', 'document', 'b', 'modifier'), link('b', 'document', 'a', 'modifier')] },
      'ACTIONS_CYCLE',
      'cycle through block "a" (a → b → a)',
    ],
    ['duplicate block ids', { title: 't', blocks: [update('a'), update('a')] }, 'ACTIONS_DUPLICATE_ID', 'blocks.1.id'],
    ['a private webhook address', { title: 't', blocks: [block('w', 'call-webhook', { url: 'http://192.168.1.1/hook' })] }, 'ACTIONS_WEBHOOK_ADDRESS_REFUSED', 'blocks.0.configuration.url: 192.168.1.1 is a private address'],
    [
      'an IPv4-compatible webhook address of a private host',
      { title: 't', blocks: [block('w', 'call-webhook', { url: 'http://[::10.0.0.1]/hook' })] },
      'ACTIONS_WEBHOOK_ADDRESS_REFUSED',
      'blocks.0.configuration.url: ::a00:1 is the IPv4-compatible form of 10.0.0.1, a private address',
    ],
    [
      'a NAT64 webhook address of the metadata service',
      { title: 't', blocks: [block('w', 'call-webhook', { url: 'http://[64:ff9b::169.254.169.254]/latest' })] },
      'ACTIONS_WEBHOOK_ADDRESS_REFUSED',
      'blocks.0.configuration.url: 64:ff9b::a9fe:a9fe is the NAT64 form of 169.254.169.254, a linkLocal address',
    ],
    [
      'a 6to4 webhook address of a private host',
      { title: 't', blocks: [block('w', 'call-webhook', { url: 'http://[2002:c0a8:101::1]/' })] },
      'ACTIONS_WEBHOOK_ADDRESS_REFUSED',
      'blocks.0.configuration.url: 2002:c0a8:101::1 is the 6to4 form of 192.168.1.1, a private address',
    ],
    [
      'a mail text with more placeholders than a template may hold',
      { title: 't', blocks: [block('m', 'send-mail', { to: 'a@example.org', text: '{{data}}'.repeat(201) })] },
      'ACTIONS_INVALID_CONFIGURATION',
      'blocks.0.configuration.text: send-mail block "m": may hold at most 200 placeholders',
    ],
    [
      'a modifier with more placeholders than a template may hold',
      { title: 't', blocks: [block('u', 'update-database', { modifier: { $set: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, '{{data.revision}}'])) } })] },
      'ACTIONS_INVALID_CONFIGURATION',
      'blocks.0.configuration.modifier: update-database block "u": may hold at most 200 placeholders in its values',
    ],
    [
      'a modifier past 64 KiB',
      { title: 't', blocks: [block('u', 'update-database', { modifier: { $set: { note: 'x'.repeat(64 * 1024) } } })] },
      'ACTIONS_INVALID_CONFIGURATION',
      'blocks.0.configuration.modifier: update-database block "u": may be at most 65536 bytes of JSON',
    ],
    [
      'an action past 256 KiB',
      {
        title: 't',
        // Small nested arrays, what parsed takes the most memory for its size.
        blocks: Array.from({ length: 5 }, (_, i) => block(`c${i}`, 'conditional-logic', { operator: 'equals', value: Array.from({ length: 14_000 + i }, () => [0]) })),
      },
      'ACTIONS_TOO_LARGE',
      'blocks.4: the action is',
    ],
  ])('refuses %s', async (_name, body, code, named) => {
    const projectId = await project();
    const response = await platform.call('POST', `/api/projects/${projectId}/actions`, { token: token.owner, body });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(code);
    expect(response.body.error).toContain(named);
    expect((await platform.call('GET', `/api/projects/${projectId}/actions`, { token: token.owner })).body.items).toEqual([]);
  });

  it('refuses an invalid PUT and keeps the stored action', async () => {
    const projectId = await project();
    const action = await platform.createAction(projectId, token.owner, mailAction);
    const response = await platform.call('PUT', `/api/projects/${projectId}/actions/${action.id}`, {
      token: token.owner,
      body: { ...mailAction, connections: [...mailAction.connections, link('mail', 'sent', 'check', 'input')] },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('ACTIONS_CYCLE');
    expect((await platform.call('GET', `/api/projects/${projectId}/actions/${action.id}`, { token: token.owner })).body).toEqual(action);
  });
});

describe('GET /api/actions/blocks', () => {
  it('lists the four blocks with sockets and configuration schemas', async () => {
    const response = await platform.call('GET', '/api/actions/blocks', { token: token.viewer });
    expect(response.status).toBe(200);
    const blocks = response.body.blocks as Array<{ name: string; sockets: unknown[]; configurationSchema: { properties?: Record<string, unknown> } }>;
    expect(blocks.map((b) => b.name)).toEqual(['send-mail', 'update-database', 'call-webhook', 'conditional-logic']);
    const webhook = blocks.find((b) => b.name === 'call-webhook');
    expect(webhook?.sockets).toContainEqual({ name: 'status', type: 'number', direction: 'OUT' });
    expect(Object.keys(webhook?.configurationSchema.properties ?? {})).toEqual(['url', 'timeoutMs', 'secret', 'retries']);
  });
});

describe('an action access rule with a misspelt key', () => {
  it('is refused naming the key, and nothing is stored (a rule without its userIds would open the action to every member)', async () => {
    const projectId = await project();
    for (const access of [{ read: { users: ['owner'] } }, { reed: { userIds: ['owner'] } }]) {
      const refused = await platform.call('POST', `/api/projects/${projectId}/actions`, { token: token.owner, body: { ...mailAction, access } });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(refused.body.error).toMatch(/access.*(users|reed)/);
    }
    expect((await platform.call('GET', `/api/projects/${projectId}/actions`, { token: token.owner })).body.items).toEqual([]);
  });
});

describe('a project holds a bounded number of actions', () => {
  let bounded: ActionsTestPlatform;
  beforeAll(async () => {
    bounded = await startActionsPlatform({ maxPerProject: 3 });
  });
  afterAll(async () => {
    await bounded?.close();
  });

  it('refuses a create past ACTIONS_MAX_PER_PROJECT with 409 and stores nothing; a deleted action frees its place; other projects are not counted', async () => {
    const owner = await bounded.signIn('owner');
    const projectId = await bounded.seedProject({ ownerId: 'owner' });
    const other = await bounded.seedProject({ ownerId: 'owner' });
    const create = (project: string) => bounded.call('POST', `/api/projects/${project}/actions`, { token: owner, body: mailAction });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const created = await create(projectId);
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const refused = await create(projectId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'ACTIONS_TOO_MANY', details: { limit: 3 } });
    expect(refused.body.error).toContain('at most 3 actions');
    const listed = async () => (await bounded.call('GET', `/api/projects/${projectId}/actions`, { token: owner })).body.items.map((action: { id: string }) => action.id);
    expect(await listed()).toEqual(ids);
    expect((await create(other)).status).toBe(201);

    expect((await bounded.call('DELETE', `/api/projects/${projectId}/actions/${ids[0]}`, { token: owner })).status).toBe(200);
    expect((await create(projectId)).status).toBe(201);
  });
});
