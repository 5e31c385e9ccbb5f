import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
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

async function freshType(): Promise<string> {
  const type = await platform.call('POST', `/api/projects/${projectId}/types`, { token: owner, body: { name: 'Pages' } });
  expect(type.status).toBe(201);
  return type.body.id;
}

describe('pull pages end on a millisecond', () => {
  it('a page runs over the limit to finish its last millisecond, so pulling from the largest updatedAt misses nothing', async () => {
    const typeId = await freshType();
    const path = `/api/projects/${projectId}/types/${typeId}/data`;
    const written: string[] = [];
    const firstMs = now + 1;
    for (const millisecond of [firstMs, firstMs + 1]) {
      now = millisecond;
      for (let i = 0; i < 7; i += 1) written.push((await platform.call('POST', path, { token: owner, body: { i } })).body.id);
    }
    now += 1;

    const first = await platform.call('GET', `${path}?updatedAt=0&limit=5`, { token: owner });
    expect(first.body.items).toHaveLength(7);
    expect(first.body.items.every((item: { updatedAt: number }) => item.updatedAt === firstMs)).toBe(true);
    expect(first.body.cursor).toEqual(expect.any(String));
    const byCursor = await platform.call('GET', `${path}?updatedAt=0&limit=5&cursor=${first.body.cursor}`, { token: owner });
    const byUpdatedAt = await platform.call('GET', `${path}?updatedAt=${firstMs}&limit=5`, { token: owner });
    expect(byCursor.body).toEqual(byUpdatedAt.body);
    expect(byUpdatedAt.body.items).toHaveLength(7);
    expect(byUpdatedAt.body.cursor).toBeUndefined();

    const seen = await pullWithUpdatedAtOnly((query) => platform.call('GET', `${path}?${query}`, { token: owner }), { since: 0, limit: () => 5 });
    expect([...seen.keys()].sort()).toEqual([...written].sort());
    const listed = await platform.call('GET', `${path}?limit=3`, { token: owner });
    expect(listed.body.items).toHaveLength(7);
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
