import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProjectCaller } from '@platform/kit';
import { createEmbeddedStore, wrappedCollections, type Collection, type DocumentStore, type StoredDocument } from '@platform/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EntityScope, StoredEntity } from './entity';
import type { PageBudget } from '../domain/page-budget';
import { decodeCursor, EntityReader, type PullPage } from './entity-reader';
import { History } from './history';
import { UpdatedAtClock } from './updated-at-clock';

const scope: EntityScope = { projectId: 'p1', typeId: 'scans', collection: 'tenant-p1-scans' };
const owner: ProjectCaller = { userId: 'u1', superuser: true, permissions: new Set() };
/** What one page's read may hold in these tests: a little over two of the 10 kB documents. */
const READ_BYTES = 25_000;
const TEXT = 'x'.repeat(10_000);

/** Ten documents one per millisecond, then four sharing one, then two more: sixteen in all, in page order. */
function documents(): StoredEntity[] {
  const updatedAts = [...Array.from({ length: 10 }, (_, index) => 1_000 + index), 2_000, 2_000, 2_000, 2_000, 3_000, 3_001];
  return updatedAts.map((updatedAt, index) => ({ id: `d${String(index).padStart(2, '0')}`, revision: 0, createdAt: updatedAt, updatedAt, text: TEXT }));
}

describe('a page read stops at its bytes', () => {
  let store: DocumentStore;
  /** The characters of every bounded read's answer, in order. */
  const reads: number[] = [];

  beforeEach(async () => {
    store = await createEmbeddedStore({ dataDir: await mkdtemp(join(tmpdir(), 'reader-pages-')), fsync: false });
    await store.collection<StoredEntity>(scope.collection).insertMany(documents());
    reads.length = 0;
  });

  afterEach(async () => {
    await store.close();
  });

  /** The reader on a store whose bounded reads are recorded as they answer. */
  function reader(): EntityReader {
    const recorded = Object.create(store) as DocumentStore;
    recorded.collection = wrappedCollections(store, (collection: Collection<StoredDocument>) =>
      Object.assign(Object.create(collection) as Collection<StoredDocument>, {
        findWithin: async (...args: Parameters<Collection<StoredDocument>['findWithin']>) => {
          const found = await collection.findWithin(...args);
          reads.push(JSON.stringify(found.documents).length);
          return found;
        },
      }),
    );
    return new EntityReader(recorded, new History(recorded), new UpdatedAtClock(() => 10_000, 0), undefined, READ_BYTES);
  }

  async function allPages(read: (cursor: string | undefined) => Promise<PullPage>): Promise<PullPage[]> {
    const pages: PullPage[] = [];
    let cursor: string | undefined;
    do {
      const page = await read(cursor);
      pages.push(page);
      cursor = page.cursor;
    } while (cursor);
    return pages;
  }

  it('holds at most one document past the bound per read, ends pages between milliseconds, and brings every document once', async () => {
    const entities = reader();
    const pages = await allPages((cursor) => entities.list(scope, owner, { limit: 1_000, ...(cursor ? { cursor: decodeCursor(cursor)! } : {}) }));
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(documents().map((document) => document.id));
    expect(pages.length).toBeGreaterThan(5);
    expect(Math.max(...reads)).toBeLessThan(READ_BYTES + 2 * TEXT.length);
    for (const page of pages.slice(0, -1)) {
      const last = page.items[page.items.length - 1] as StoredEntity;
      expect(decodeCursor(page.cursor as string)).toMatchObject({ updatedAt: last.updatedAt, id: last.id });
    }
  });

  it('answers a millisecond over the bound whole, and pulls page the same way', async () => {
    const entities = reader();
    const pages = await allPages((cursor) => entities.pull(scope, owner, { since: 0, limit: 1_000, ...(cursor ? { cursor: decodeCursor(cursor)! } : {}) }));
    const shared = pages.find((page) => page.items.some((item) => item.updatedAt === 2_000)) as PullPage;
    expect(shared.items.filter((item) => item.updatedAt === 2_000).map((item) => item.id)).toEqual(['d10', 'd11', 'd12', 'd13']);
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(documents().map((document) => document.id));
  });

  it('asks a budget that reads (prepare) only for the items the budgets that do not read keep', async () => {
    const entities = new EntityReader(store, new History(store), new UpdatedAtClock(() => 10_000, 0));
    const prepared: string[][] = [];
    const reading: PageBudget<StoredEntity> = { limit: Number.MAX_SAFE_INTEGER, prepare: async (items) => void prepared.push(items.map((item) => item.id)), cost: () => 1 };
    // Three per page by count, the millisecond of d10 to d13 whole.
    const counting: PageBudget<StoredEntity> = { limit: 3, cost: () => 1 };
    const first = await entities.list(scope, owner, { limit: 1_000, budgets: [reading, counting] });
    expect(first.items.map((item) => item.id)).toEqual(['d00', 'd01', 'd02']);
    expect(prepared).toEqual([['d00', 'd01', 'd02']]);
    const shared = await entities.list(scope, owner, { limit: 1_000, budgets: [reading, counting], cursor: { updatedAt: 1_009, id: 'd09', until: Number.MAX_SAFE_INTEGER } });
    expect(shared.items.map((item) => item.id)).toEqual(['d10', 'd11', 'd12', 'd13']);
    expect(prepared[1]).toEqual(['d10', 'd11', 'd12', 'd13']);
  });

  it('reads a page of small documents in one read, as before', async () => {
    const entities = new EntityReader(store, new History(store), new UpdatedAtClock(() => 10_000, 0));
    const page = await entities.list(scope, owner, { limit: 1_000 });
    expect(page.items).toHaveLength(16);
    expect(page.cursor).toBeUndefined();
  });
});
