import type { Api } from './api';
import type { Fixture } from './seed';

export interface StoredDocument {
  id: string;
  revision: number;
  createdAt: number;
  n?: number;
  title?: string;
  deletedAt?: number;
  changes: Array<{ timestamp: number }>;
}

export interface TrailItem {
  entityId: string;
  entityTypeId: string;
  changeDescription: string;
  timestamp: number;
}

export interface Run {
  documentId?: string;
  eventId: string;
  status: string;
}

/** Runs `task` on every item with at most `concurrency` in flight. */
async function eachConcurrently<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await task(items[next++] as T);
  }));
}

/**
 * Every document of the type (the list, all pages: a pull would leave out the last second's
 * writes, which it returns on the next pull), each then read on its own with its history.
 */
export async function readDocuments(fixture: Fixture): Promise<Map<string, StoredDocument>> {
  const ids: string[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await fixture.owner.eventually<{ items: Array<{ id: string }>; cursor?: string }>(
      `${fixture.dataPath}?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    ids.push(...page.items.map((item) => item.id));
    cursor = page.cursor;
  }
  const documents = new Map<string, StoredDocument>();
  await eachConcurrently(ids, 4, async (id) => {
    documents.set(id, await fixture.owner.eventually<StoredDocument>(`${fixture.dataPath}/${id}?includeChanges=true`));
  });
  return documents;
}

/** GETs one document; undefined when the platform says 404. */
export async function readDocument(fixture: Fixture, id: string): Promise<StoredDocument | undefined> {
  const answer = await fixture.owner.request<StoredDocument>('GET', `${fixture.dataPath}/${id}`);
  if (answer.outcome === 404) return undefined;
  if (answer.outcome !== 200) throw new Error(`GET ${fixture.dataPath}/${id} answered ${answer.outcome}`);
  return answer.body;
}

/** Pages through a paged list until `total` items are read. */
async function readAllPages<T>(api: Api, pathFor: (page: number) => string): Promise<{ items: T[]; total: number }> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api.eventually<{ items: T[]; total: number }>(pathFor(page));
    items.push(...answer.items);
    if (answer.items.length === 0 || items.length >= answer.total) return { items, total: answer.total };
  }
}

/** The project's audit trail for the type, every page. */
export function readTrail(fixture: Fixture): Promise<{ items: TrailItem[]; total: number }> {
  return readAllPages(fixture.owner, (page) => `/api/projects/${fixture.projectId}/audit-trail?typeId=${fixture.typeId}&limit=200&page=${page}`);
}

/** The action's runs, every page. */
export function readRuns(fixture: Fixture): Promise<{ items: Run[]; total: number }> {
  return readAllPages(fixture.owner, (page) => `/api/projects/${fixture.projectId}/actions/${fixture.actionId}/runs?pageSize=200&page=${page}`);
}
