import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import type { DocumentStore } from '@platform/storage';
import { temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataService } from '../app';

interface Seen {
  revision: number;
  deleted: boolean;
}

/**
 * Two data-service replicas share one MongoDB; writers create, patch and delete through both
 * while pullers pull incrementally through both with the largest `updatedAt` they have seen.
 * Afterwards every puller must hold exactly the server's state: no change may be skipped.
 */
describeWithBackend('mongo', 'pull convergence with concurrent writers and two replicas (MongoDB)', ({ url }) => {
  let temporary: TemporaryStore | undefined;
  let store: DocumentStore;
  const replicas: TestGateway[] = [];
  let projectId: string;
  const tokens: string[] = [];

  beforeAll(async () => {
    temporary = await temporaryMongoStore(url, 'pull');
    store = temporary.store;
    for (let i = 0; i < 2; i += 1) replicas.push(await startTestGateway({ services: [dataService], store }));
    projectId = await replicas[0]!.seedProject({ ownerId: 'owner', members: [{ userId: 'writer' }, { userId: 'reader' }] });
    tokens.push(await replicas[0]!.signIn('writer'), await replicas[1]!.signIn('writer'));
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await temporary?.dispose();
  });

  it('every puller converges to the server state', async () => {
    const typeResponse = await replicas[0]!.call('POST', `/api/projects/${projectId}/types`, { token: tokens[0], body: { name: 'Tickets' } });
    expect(typeResponse.status).toBe(201);
    const path = `/api/projects/${projectId}/types/${typeResponse.body.id}/data`;
    let writing = true;

    async function writer(replica: TestGateway, token: string, count: number): Promise<void> {
      const mine: Array<{ id: string; revision: number }> = [];
      for (let i = 0; i < count; i += 1) {
        const roll = i % 5;
        if (roll < 2 || mine.length === 0) {
          const created = await replica.call('POST', path, { token, body: { n: i } });
          expect(created.status).toBe(201);
          mine.push({ id: created.body.id, revision: created.body.revision });
        } else if (roll < 4) {
          const target = mine[i % mine.length]!;
          const patched = await replica.call('PATCH', `${path}/${target.id}`, { token, body: { modifier: { $inc: { n: 1 } }, baseRevision: target.revision } });
          if (patched.status === 200) target.revision = patched.body.revision;
          else expect(patched.status, `PATCH sent with revision ${target.revision}: ${JSON.stringify(patched.body)}`).toBe(404);
        } else {
          const target = mine.splice(i % mine.length, 1)[0]!;
          expect((await replica.call('DELETE', `${path}/${target.id}`, { token })).status).toBe(200);
        }
      }
    }

    async function pullOnce(replica: TestGateway, token: string, state: Map<string, Seen>, since: number): Promise<number> {
      let cursor: string | undefined;
      let largest = since;
      do {
        const page = await replica.call('GET', `${path}?updatedAt=${since}&limit=25${cursor ? `&cursor=${cursor}` : ''}`, { token });
        expect(page.status).toBe(200);
        for (const item of page.body.items as Array<{ id: string; revision: number; updatedAt: number; deletedAt?: number }>) {
          state.set(item.id, { revision: item.revision, deleted: item.deletedAt !== undefined });
          largest = Math.max(largest, item.updatedAt);
        }
        cursor = page.body.cursor;
      } while (cursor);
      return largest;
    }

    async function puller(replicaIndex: number): Promise<Map<string, Seen>> {
      const replica = replicas[replicaIndex]!;
      const token = await replica.signIn('reader');
      const state = new Map<string, Seen>();
      let since = 0;
      while (writing) since = await pullOnce(replica, token, state, since);
      // Writes are over; once the settle margin has passed, one more pull must finish the job.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await pullOnce(replica, token, state, since);
      return state;
    }

    const pullers = [puller(0), puller(1), puller(0)];
    const writers = [writer(replicas[0]!, tokens[0]!, 60), writer(replicas[1]!, tokens[1]!, 60), writer(replicas[1]!, tokens[1]!, 60)];
    try {
      await Promise.all(writers);
    } finally {
      // After a failed writer too: nobody may go on calling the replicas afterAll closes.
      await Promise.allSettled(writers);
      writing = false;
      await Promise.allSettled(pullers);
    }
    const states = await Promise.all(pullers);

    const truth = new Map<string, Seen>();
    await pullOnce(replicas[0]!, tokens[0]!, truth, 0);
    expect(truth.size).toBeGreaterThan(50);
    for (const state of states) expect(Object.fromEntries(state)).toEqual(Object.fromEntries(truth));
    // Every change was published, so every outbox was emptied (the drain's pull works on this server too).
    const collection = `tenant-${projectId}-${typeResponse.body.id}`;
    expect(await store.collection(collection).count({ '_outbox.0': { $exists: true } })).toBe(0);
  }, 120_000);
});
