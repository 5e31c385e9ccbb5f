import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import type { DocumentStore } from '@platform/storage';
import { temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataService } from '../app';

/**
 * On a shared MongoDB a pull reads only changes older than the settle margin, so a change made
 * just before a client's first pull is not in it, and no notification follows for a client that
 * subscribed later. The pull says so (`retryAfterMs`), for the caller's readable changes only.
 */
describeWithBackend('mongo', 'a pull right after a write (MongoDB)', ({ url }) => {
  let temporary: TemporaryStore | undefined;
  let store: DocumentStore;
  let gateway: TestGateway;
  let projectId: string;
  let owner: string;
  let member: string;

  beforeAll(async () => {
    temporary = await temporaryMongoStore(url, 'settling');
    store = temporary.store;
    gateway = await startTestGateway({ services: [dataService], store });
    projectId = await gateway.seedProject({ ownerId: 'owner', members: [{ userId: 'member' }] });
    [owner, member] = [await gateway.signIn('owner'), await gateway.signIn('member')];
  });
  afterAll(async () => {
    await gateway?.close();
    await temporary?.dispose();
  });

  it('tells the puller to come back for a change still settling, and gives it then', async () => {
    const typeId = (await gateway.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Notes' } })).body.id as string;
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    const created = await gateway.call('POST', path, { token: owner, body: { title: 'just written' } });
    expect(created.status).toBe(201);

    const first = await gateway.call('GET', `${path}?updatedAt=0`, { token: owner });
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual([]);
    expect(first.body.retryAfterMs).toBeGreaterThan(1_000);
    expect(first.body.retryAfterMs).toBeLessThan(2_000);

    await new Promise((resolve) => setTimeout(resolve, first.body.retryAfterMs));
    const second = await gateway.call('GET', `${path}?updatedAt=0`, { token: owner });
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
    expect(second.body).not.toHaveProperty('retryAfterMs');
  });

  it('says nothing of a settling change the caller may not read', async () => {
    const typeId = (await gateway.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Secrets' } })).body.id as string;
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    const hidden = await gateway.call('POST', path, { token: owner, body: { title: 'secret', access: { read: { permission: 'secret' } } } });
    expect(hidden.status).toBe(201);
    expect((await gateway.call('GET', `${path}/${hidden.body.id}`, { token: member })).status).toBe(404);
    const pulled = await gateway.call('GET', `${path}?updatedAt=0`, { token: member });
    expect(pulled.status).toBe(200);
    expect(pulled.body).toEqual({ items: [], standing: expect.any(String) });
  });
});
