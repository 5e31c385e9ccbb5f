import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { CHANGES_PER_PAGE, documentsCollection, historyCollection, storeChange } from '@platform/documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';

/** Five documents of 5,000 changes each, one per millisecond: four fill a page's change budget. */
const DOCUMENTS = 5;
const CHANGES_EACH = CHANGES_PER_PAGE / 4;

let platform: TestGateway;
let token: string;
let path: string;
let collection: string;
let now = 1_700_000_000_000;
const ids: string[] = [];

interface PagedItem {
  id: string;
  updatedAt: number;
  revision: number;
  changes?: Array<{ baseRevision: number }>;
}

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService], clock: () => now });
  token = await platform.signIn('reader');
  const projectId = await platform.seedProject({ ownerId: 'reader' });
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'ledgers', name: 'Ledgers' } })).status).toBe(201);
  path = `/api/projects/${projectId}/types/ledgers/data`;
  collection = documentsCollection(projectId, 'ledgers');
  for (let index = 0; index < DOCUMENTS; index += 1) {
    now += 1;
    const created = await platform.call('POST', path, { token, body: { title: `Ledger ${index}`, count: 0 } });
    expect(created.status).toBe(201);
    ids.push(created.body.id);
  }
  // Long histories written straight into the store in the writer's own record format: 25,000
  // writes through the API take minutes here, and this test is about pages, not the write path.
  for (const id of ids) {
    const seeded = Array.from({ length: CHANGES_EACH - 1 }, (_, index) => {
      const revision = index + 1;
      return { id: `${id}:${revision}`, entityId: id, ...storeChange({ revision, userId: 'reader', timestamp: now, baseRevision: revision - 1, modifier: { $inc: { count: 1 } } }) };
    });
    await platform.context.store.collection(historyCollection(collection)).insertMany(seeded);
    await platform.context.store.collection(collection).updateOne({ id }, { $set: { revision: CHANGES_EACH - 1, count: CHANGES_EACH - 1 } });
  }
  now += 5_000;
}, 60_000);

afterAll(async () => {
  await platform?.close();
});

function expectWholeHistories(items: PagedItem[]): void {
  for (const item of items) {
    expect(item.changes).toHaveLength(CHANGES_EACH);
    expect(item.changes?.every((change, index) => change.baseRevision === index - 1)).toBe(true);
  }
}

describe('pages with includeChanges carry a bounded number of changes', () => {
  it('a pull ends its page once the changes would pass the budget, and the cursor or the largest updatedAt continues it', async () => {
    const plain = await platform.call('GET', `${path}?updatedAt=0`, { token });
    expect(plain.body.items.map((item: PagedItem) => item.id)).toEqual(ids);

    const first = await platform.call('GET', `${path}?updatedAt=0&includeChanges=true`, { token });
    expect(first.status).toBe(200);
    const firstItems = first.body.items as PagedItem[];
    expect(firstItems.map((item) => item.id)).toEqual(ids.slice(0, 4));
    expectWholeHistories(firstItems);
    expect(first.body.cursor).toEqual(expect.any(String));

    const byCursor = await platform.call('GET', `${path}?updatedAt=0&includeChanges=true&cursor=${first.body.cursor}`, { token });
    const last = firstItems[firstItems.length - 1] as PagedItem;
    const byUpdatedAt = await platform.call('GET', `${path}?updatedAt=${last.updatedAt}&includeChanges=true`, { token });
    expect(byCursor.body.items.map((item: PagedItem) => item.id)).toEqual([ids[4]]);
    expect(byUpdatedAt.body.items).toEqual(byCursor.body.items);
    expectWholeHistories(byCursor.body.items);
    expect(byCursor.body.cursor).toBeUndefined();
  });

  it('a list with includeChanges pages the same way', async () => {
    const first = await platform.call('GET', `${path}?includeChanges=true`, { token });
    expect(first.body.items.map((item: PagedItem) => item.id)).toEqual(ids.slice(0, 4));
    const second = await platform.call('GET', `${path}?includeChanges=true&cursor=${first.body.cursor}`, { token });
    expect(second.body.items.map((item: PagedItem) => item.id)).toEqual([ids[4]]);
    expect(second.body.cursor).toBeUndefined();
  });

  it('a millisecond is never split: the first one of a page comes whole, even over the budget', async () => {
    // All five written in one millisecond (the last test: it moves the documents of the others).
    const shared = now - 6_000;
    await platform.context.store.collection(collection).updateMany({}, { $set: { updatedAt: shared } });
    const page = await platform.call('GET', `${path}?updatedAt=0&includeChanges=true`, { token });
    expect(page.body.items.map((item: PagedItem) => item.id).sort()).toEqual([...ids].sort());
    expectWholeHistories(page.body.items);
    expect(page.body.cursor).toBeUndefined();
  });
});
