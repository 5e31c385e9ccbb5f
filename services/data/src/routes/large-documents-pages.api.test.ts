import { startTestGateway, type TestGateway } from '@platform/gateway/testing';
import { documentsCollection, PAGE_CHARACTERS } from '@platform/documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataService } from '../app';
import { pullWithUpdatedAtOnly } from '../testing/updated-at-only-pulls';

/** Forty documents of about 900 kB, one per millisecond: about 36 MB, more than two pages' worth of characters. */
const DOCUMENTS = 40;
const TEXT = 'x'.repeat(900_000);

let platform: TestGateway;
let token: string;
let path: string;
const ids: string[] = [];

beforeAll(async () => {
  platform = await startTestGateway({ services: [dataService] });
  token = await platform.signIn('reader');
  const projectId = await platform.seedProject({ ownerId: 'reader' });
  expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'scans', name: 'Scans' } })).status).toBe(201);
  path = `/api/projects/${projectId}/types/scans/data`;
  // Written straight into the store: a write's modifier takes at most 256 kB, and this test is about pages.
  const documents = Array.from({ length: DOCUMENTS }, (_, index) => ({ id: `scan-${String(index).padStart(2, '0')}`, revision: 0, createdAt: 1_000 + index, updatedAt: 1_000 + index, text: TEXT }));
  await platform.context.store.collection(documentsCollection(projectId, 'scans')).insertMany(documents);
  ids.push(...documents.map((document) => document.id));
}, 60_000);

afterAll(async () => {
  await platform?.close();
});

interface PagedItem {
  id: string;
  updatedAt: number;
  text: string;
}

describe('a page of large documents ends at its character budget', () => {
  it('a pull ends its page once its documents pass the budget, with a cursor; every document arrives whole, by cursor and by updatedAt alone', async () => {
    const first = await platform.call('GET', `${path}?updatedAt=0`, { token });
    expect(first.status).toBe(200);
    const firstItems = first.body.items as PagedItem[];
    expect(firstItems.length).toBeGreaterThan(0);
    expect(firstItems.length).toBeLessThan(DOCUMENTS);
    expect(JSON.stringify(first.body.items).length).toBeLessThanOrEqual(PAGE_CHARACTERS);
    expect(first.body.cursor).toEqual(expect.any(String));

    const seen: PagedItem[] = [...firstItems];
    let cursor = first.body.cursor as string | undefined;
    while (cursor) {
      const next = await platform.call('GET', `${path}?updatedAt=0&cursor=${cursor}`, { token });
      seen.push(...(next.body.items as PagedItem[]));
      cursor = next.body.cursor;
    }
    expect(seen.map((item) => item.id)).toEqual(ids);
    expect(seen.every((item) => item.text === TEXT)).toBe(true);

    const byUpdatedAt = await pullWithUpdatedAtOnly((query) => platform.call('GET', `${path}?${query}`, { token }), { since: 0, limit: () => 1000 });
    expect([...byUpdatedAt.keys()].sort()).toEqual(ids);
  });

  it('a list pages the same way', async () => {
    const first = await platform.call('GET', path, { token });
    expect(first.body.items.length).toBeLessThan(DOCUMENTS);
    expect(first.body.cursor).toEqual(expect.any(String));
    const second = await platform.call('GET', `${path}?cursor=${first.body.cursor}`, { token });
    expect(second.body.items[0].id).toBe(ids[first.body.items.length]);
  });
});

describe('a page with includeChanges counts its changes in the character budget', () => {
  /** Forty documents of 200 kB, each then changed twice by as much: 8 MB of documents, over 30 MB with their changes. */
  const CHANGED = 40;
  const piece = (letter: string) => letter.repeat(200_000);
  let historyPath: string;
  const historyIds: string[] = [];

  beforeAll(async () => {
    const projectId = await platform.seedProject({ ownerId: 'reader' });
    expect((await platform.call('POST', `/api/projects/${projectId}/types`, { token, body: { id: 'drafts', name: 'Drafts' } })).status).toBe(201);
    historyPath = `/api/projects/${projectId}/types/drafts/data`;
    for (let index = 0; index < CHANGED; index += 1) {
      const id = `draft-${String(index).padStart(2, '0')}`;
      expect((await platform.call('POST', historyPath, { token, body: { id, text: piece('a') } })).status).toBe(201);
      for (const [baseRevision, letter] of [[0, 'b'], [1, 'c']] as const) {
        expect((await platform.call('PATCH', `${historyPath}/${id}`, { token, body: { baseRevision, modifier: { $set: { text: piece(letter) } } } })).status).toBe(200);
      }
      historyIds.push(id);
    }
  }, 120_000);

  it('ends a pull page once its entities with their changes pass the budget; the cursor brings every entity with its whole history', async () => {
    const first = await platform.call('GET', `${historyPath}?updatedAt=0&includeChanges=true`, { token });
    expect(first.status).toBe(200);
    expect(first.body.items.length).toBeGreaterThan(0);
    expect(first.body.items.length).toBeLessThan(CHANGED);
    expect(JSON.stringify(first.body.items).length).toBeLessThanOrEqual(PAGE_CHARACTERS);
    expect(first.body.cursor).toEqual(expect.any(String));

    const seen: Array<{ id: string; text: string; changes: unknown[] }> = [...first.body.items];
    let cursor = first.body.cursor as string | undefined;
    while (cursor) {
      const next = await platform.call('GET', `${historyPath}?updatedAt=0&includeChanges=true&cursor=${cursor}`, { token });
      expect(JSON.stringify(next.body.items).length).toBeLessThanOrEqual(PAGE_CHARACTERS);
      seen.push(...next.body.items);
      cursor = next.body.cursor;
    }
    expect(seen.map((item) => item.id)).toEqual(historyIds);
    expect(seen.every((item) => item.text === piece('c') && item.changes.length === 3)).toBe(true);
  });
});
