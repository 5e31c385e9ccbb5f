import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serviceRegistry } from './service-registry';
import { openSyncStream, type SyncStream } from './testing/platform-http';

/**
 * A document's access written in a type the member may not read: the member's stream hears
 * nothing of it, not even that access changed (the type answers 404 to it everywhere else). In a
 * type it may read, a document it may no longer read is told as `access-changed`.
 */
let platform: TestGateway;
let projectId: string;
let stream: SyncStream;
const tokens: Record<'owner' | 'bob', string> = { owner: '', bob: '' };

async function asOwner(method: string, path: string, body?: unknown): Promise<any> {
  const answer = await platform.call(method, `/api/projects/${projectId}${path}`, { token: tokens.owner, body });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

beforeAll(async () => {
  platform = await startTestGateway({ services: Object.values(serviceRegistry), realtime: true });
  for (const who of ['owner', 'bob'] as const) tokens[who] = await platform.signIn(who);
  projectId = await platform.seedProject({ ownerId: 'owner', members: [{ userId: 'alice', permissions: ['readers'] }, { userId: 'bob' }] });
  await asOwner('POST', '/types', { id: 'vault', name: 'Vault', access: { read: { permission: `${projectId}::readers` } } });
  await asOwner('POST', '/types', { id: 'lobby', name: 'Lobby' });
  await asOwner('POST', '/types/vault/data', { id: 'gold', title: 'secret gold' });
  await asOwner('POST', '/types/lobby/data', { id: 'chair', title: 'a chair' });
  const opened = await openSyncStream(platform.url, tokens.bob, projectId);
  if (!opened) throw new Error('bob could not open a realtime stream');
  stream = opened;
}, 30_000);

afterAll(async () => {
  stream?.close();
  await platform?.close();
});

describe("access written to documents, on the stream of a member kept out of one type by the type's read rule", () => {
  it('tells nothing of the type it may not read, and access-changed of the type it may', async () => {
    const onlyOwner = { access: { read: { userIds: ['owner'] } } };
    await asOwner('PATCH', '/types/vault/data/gold', { baseRevision: 0, modifier: { $set: onlyOwner } });
    await asOwner('PATCH', '/types/lobby/data/chair', { baseRevision: 0, modifier: { $set: onlyOwner } });
    // The lobby's notice comes after the vault's: once it is there, the vault's would be too.
    await vi.waitFor(() => expect(stream.text()).toContain(`event: access-changed\ndata: {"projectId":"${projectId}","typeId":"lobby"}`), { timeout: 5_000 });
    expect(stream.text()).not.toContain('vault');
  });
});
