import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serviceRegistry } from './service-registry';
import { openSyncStream, type SyncStream } from './testing/platform-http';

/**
 * A type's read rule guards its documents on the read paths outside the data service too
 * (issue 32 item 10): the audit trail, realtime notifications and action runs. `bob` lacks the
 * permission the `vault` type's read rule names; the documents themselves carry no rule.
 */
let platform: TestGateway;
let projectId: string;
let actionId: string;
/** An action `bob` owns: it runs as bob. */
let bobsActionId: string;
const tokens: Record<'owner' | 'alice' | 'bob', string> = { owner: '', alice: '', bob: '' };
const streams = {} as Record<'alice' | 'bob', SyncStream>;

async function asOwner(method: string, path: string, body?: unknown): Promise<any> {
  const answer = await platform.call(method, `/api/projects/${projectId}${path}`, { token: tokens.owner, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

async function openStream(who: 'alice' | 'bob'): Promise<void> {
  const stream = await openSyncStream(platform.url, tokens[who], projectId);
  if (!stream) throw new Error(`${who} could not open a realtime stream`);
  streams[who] = stream;
}

const ids = (items: Array<{ entityId?: string; documentId?: string }>) => items.map((item) => item.entityId ?? item.documentId).sort();
/** The trail's items of documents and types: not those of the project's own records (the two actions saved here). */
const entityItems = (items: Array<{ entityTypeId: string; entityId: string }>) => items.filter((item) => !item.entityTypeId.startsWith('project.'));

beforeAll(async () => {
  platform = await startTestGateway({ services: Object.values(serviceRegistry), realtime: true });
  for (const who of ['owner', 'alice', 'bob'] as const) tokens[who] = await platform.signIn(who);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['readers'] }, { userId: 'bob' }] });
  await asOwner('POST', '/types', { id: 'vault', name: 'Vault', access: { read: { permission: `${projectId}::readers` } } });
  await asOwner('POST', '/types', { id: 'lobby', name: 'Lobby' });
  const everyNewDocument = { title: 'Runs on every new document', triggers: [{ id: 'created', triggerName: 'documentCreated' }], blocks: [] };
  actionId = (await asOwner('POST', '/actions', everyNewDocument)).id;
  const bobs = await platform.call('POST', `/api/projects/${projectId}/actions`, { token: tokens.bob, body: everyNewDocument });
  expect(bobs.status).toBe(201);
  bobsActionId = bobs.body.id;
  await openStream('alice');
  await openStream('bob');
  await asOwner('POST', '/types/vault/data', { id: 'gold', title: 'secret gold' });
  await asOwner('POST', '/types/lobby/data', { id: 'chair', title: 'a chair' });
  // The owner sees everything once the audit consumer and the executor have caught up.
  await vi.waitFor(async () => expect(ids(entityItems((await asOwner('GET', '/audit-trail')).items))).toEqual(['chair', 'gold', 'lobby', 'vault']), { timeout: 10_000, interval: 50 });
  await vi.waitFor(async () => expect(ids((await asOwner('GET', `/actions/${actionId}/runs`)).items)).toEqual(['chair', 'gold']), { timeout: 10_000, interval: 50 });
  for (const stream of Object.values(streams)) await vi.waitFor(() => expect(stream.text()).toContain('"chair"'), { timeout: 5_000 });
}, 30_000);

afterAll(async () => {
  for (const stream of Object.values(streams)) stream.close();
  await platform?.close();
});

describe("a type's read rule guards its documents outside the data service", () => {
  it('the audit trail leaves out, and does not count, the changes of a type the caller may not read', async () => {
    const trail = async (who: 'alice' | 'bob', query = '') => (await platform.call('GET', `/api/projects/${projectId}/audit-trail${query}`, { token: tokens[who] })).body;
    expect(ids(entityItems((await trail('alice')).items))).toEqual(['chair', 'gold', 'lobby', 'vault']);
    const bobs = await trail('bob');
    // Two changes of documents and types he may read, and the two actions saved (open to members).
    expect({ ids: ids(entityItems(bobs.items)), total: bobs.total }).toEqual({ ids: ['chair', 'lobby'], total: 4 });
    expect(JSON.stringify(bobs)).not.toContain('secret gold');
    // Filtering by the type answers as for a type without readable changes.
    expect(await trail('bob', '?typeId=vault')).toEqual({ items: [], total: 0, page: 1, limit: 50 });
  });

  it('action runs on documents of a type the caller may not read are left out', async () => {
    const runs = async (who: 'alice' | 'bob') => (await platform.call('GET', `/api/projects/${projectId}/actions/${actionId}/runs`, { token: tokens[who] })).body;
    expect(ids((await runs('alice')).items)).toEqual(['chair', 'gold']);
    const bobs = await runs('bob');
    expect(ids(bobs.items)).toEqual(['chair']);
    expect(JSON.stringify(bobs)).not.toContain('"gold"');
  });

  it('an action does not run on documents of a type its owner may not read', async () => {
    await vi.waitFor(async () => expect(ids((await asOwner('GET', `/actions/${bobsActionId}/runs`)).items)).toContain('chair'), { timeout: 5_000, interval: 50 });
    expect(ids((await asOwner('GET', `/actions/${bobsActionId}/runs`)).items)).toEqual(['chair']);
  });

  it('realtime notifies only members who may read the type', async () => {
    expect(streams.alice.text()).toContain('"gold"');
    expect(streams.bob.text()).not.toContain('"gold"');
    expect(streams.bob.text()).not.toContain('"vault"');
  });

  it("lifting the type's read rule shows its documents again on every path", async () => {
    await asOwner('PATCH', '/types/vault', { modifier: { $unset: { 'access.read': '' } }, baseRevision: 0 });
    await expect.poll(async () => (await platform.call('GET', `/api/projects/${projectId}/audit-trail?typeId=vault`, { token: tokens.bob })).body.total, { timeout: 5_000 }).toBe(1);
    const runs = (await platform.call('GET', `/api/projects/${projectId}/actions/${actionId}/runs`, { token: tokens.bob })).body;
    expect(ids(runs.items)).toEqual(['chair', 'gold']);
    await asOwner('POST', '/types/vault/data', { id: 'silver', title: 'now open' });
    await expect.poll(() => streams.bob.text(), { timeout: 5_000 }).toContain('"silver"');
  });
});
