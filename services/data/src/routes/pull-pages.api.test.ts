import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import type { DocumentStore } from '@platform/storage';
import { temporaryMongoStore, type TemporaryStore } from '@platform/storage/testing';
import { describeWithBackend } from '@platform/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';
import { pullWithUpdatedAtOnly, runConcurrentWritesAndPulls } from '../testing/updated-at-only-pulls';

let platform: TestGateway;
let projectId: string;
let owner: string;
/** The platform's clock, moved by the test so writes share milliseconds on purpose. */
let now = 1_700_000_000_000;
/** Set: the clock follows real time in steps of this many ms, as if many more writes fitted in one millisecond. */
let coarseMs: number | undefined;

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService], clock: () => (coarseMs ? Math.floor(Date.now() / coarseMs) * coarseMs : now) });
  owner = await platform.signIn('owner');
  projectId = await platform.seedProject({ ownerId: 'owner' });
});

afterAll(async () => {
  await platform?.close();
});

/** The moved clock of a platform under test. */
interface TestClock {
  at(millisecond: number): void;
  current(): number;
}

/**
 * Seven writes in each of two milliseconds, then pages of 5: the first page holds all seven of its
 * millisecond, the cursor and a pull from its largest updatedAt answer the same, and a client that
 * uses only updatedAt gets every document. `settleMs`: how far the clock must move on before the
 * store's pulls read the writes (a shared MongoDB reads only below its settle margin).
 */
async function pageBoundaryCase(gateway: TestGateway, token: string, project: string, clock: TestClock, settleMs = 1): Promise<void> {
  const type = await gateway.call('POST', `/api/projects/${project}/types`, { token, body: { name: 'Pages' } });
  expect(type.status).toBe(201);
  const path = `/api/projects/${project}/types/${type.body.id}/data`;
  const written: string[] = [];
  const firstMs = clock.current() + 1;
  for (const millisecond of [firstMs, firstMs + 1]) {
    clock.at(millisecond);
    for (let i = 0; i < 7; i += 1) written.push((await gateway.call('POST', path, { token, body: { i } })).body.id);
  }
  clock.at(clock.current() + settleMs);

  const first = await gateway.call('GET', `${path}?updatedAt=0&limit=5`, { token });
  expect(first.body.items).toHaveLength(7);
  expect(first.body.items.every((item: { updatedAt: number }) => item.updatedAt === firstMs)).toBe(true);
  expect(first.body.cursor).toEqual(expect.any(String));
  const byCursor = await gateway.call('GET', `${path}?updatedAt=0&limit=5&cursor=${first.body.cursor}`, { token });
  const byUpdatedAt = await gateway.call('GET', `${path}?updatedAt=${firstMs}&limit=5`, { token });
  expect(byCursor.body).toEqual(byUpdatedAt.body);
  expect(byUpdatedAt.body.items).toHaveLength(7);
  expect(byUpdatedAt.body.cursor).toBeUndefined();

  const seen = await pullWithUpdatedAtOnly((query) => gateway.call('GET', `${path}?${query}`, { token }), { since: 0, limit: () => 5 });
  expect([...seen.keys()].sort()).toEqual([...written].sort());
  const listed = await gateway.call('GET', `${path}?limit=3`, { token });
  expect(listed.body.items).toHaveLength(7);
}

async function freshType(): Promise<string> {
  const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Pages' } });
  expect(type.status).toBe(201);
  return type.body.id;
}

describe('pull pages end on a millisecond', () => {
  it('a page runs over the limit to finish its last millisecond, so pulling from the largest updatedAt misses nothing', async () => {
    await pageBoundaryCase(platform, owner, projectId, {
      at: (millisecond) => (now = millisecond),
      current: () => now,
    });
  });

  it('randomized: concurrent writers and clients with random page sizes that use only updatedAt end with every entity at its last revision', async () => {
    coarseMs = 25;
    try {
      // The session of beforeAll was made at the test's early clock and has expired by now.
      owner = await platform.signIn('owner');
      const typeId = await freshType();
      const seed = Number(process.env.PULL_PAGES_SEED ?? Date.now() % 100_000);
      const result = await runConcurrentWritesAndPulls({
        call: (method, path, body) => platform.call(method, path, { token: owner, body }),
        typePath: `/api/projects/${projectId}/types/${typeId}`,
        seed,
        // Pulls read below the current (here 25 ms) clock step: the last writes become pullable once it moves on.
        settleMs: 2 * 25,
      });
      expect(result.sharedMilliseconds).toBeGreaterThan(0);
      for (const client of result.clients) expect(client, `PULL_PAGES_SEED=${seed}`).toEqual(result.server);
    } finally {
      coarseMs = undefined;
    }
  }, 60_000);
});

describeWithBackend('mongo', 'pull pages end on a millisecond (MongoDB)', ({ url }) => {
  let temporary: TemporaryStore | undefined;
  let store: DocumentStore;
  let gateway: TestGateway;
  let clock = 1_700_000_000_000;

  beforeAll(async () => {
    temporary = await temporaryMongoStore(url, 'pull_pages');
    store = temporary.store;
    gateway = await startTestGateway({ services: [dataService], store, clock: () => clock });
  });
  afterAll(async () => {
    await gateway?.close();
    await temporary?.dispose();
  });

  it('a page runs over the limit to finish its last millisecond on MongoDB too, so pulling from the largest updatedAt misses nothing', async () => {
    const token = await gateway.signIn('owner');
    const project = await gateway.seedProject({ ownerId: 'owner' });
    // Past the shared store's settle margin (1 s), so the pulls read the writes.
    await pageBoundaryCase(gateway, token, project, { at: (millisecond) => (clock = millisecond), current: () => clock }, 5_000);
  });
});
