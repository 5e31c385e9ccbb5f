import { useCallback, useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { Modifier } from './state-diff';

/** One change of the document's history, with the revision it made. */
export interface HistoryEntry {
  revision: number;
  userId: string;
  timestamp: number;
  baseRevision: number;
  modifier: Modifier;
}

export interface DocumentPath {
  projectId: string;
  typeId: string;
  id: string;
}

/** Changes the history view shows at a time, newest first, so 10,000 changes stay responsive. */
export const HISTORY_PAGE = 100;
/** The most one read of `.../changes` may ask for (the data service's bound). */
const LARGEST_READ = 1000;

/** Both lists as one, newest first, each revision once. */
function merged(entries: HistoryEntry[], more: HistoryEntry[]): HistoryEntry[] {
  const byRevision = new Map(entries.map((entry) => [entry.revision, entry]));
  for (const entry of more) byRevision.set(entry.revision, entry);
  return [...byRevision.values()].sort((a, b) => b.revision - a.revision);
}

/** The changes from `from` down to `through` (inclusive), in reads the server takes. */
async function readRange(path: DocumentPath, from: number, through: number): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  let next: number | undefined = from;
  while (next !== undefined && next >= through) {
    const limit = Math.min(LARGEST_READ, next - through + 1);
    const page: { items: HistoryEntry[]; nextFromRevision?: number } = await unwrap(api.GET('/api/projects/{projectId}/types/{typeId}/data/{id}/changes', { params: { path, query: { fromRevision: next, limit } } }));
    entries.push(...page.items);
    next = page.nextFromRevision;
  }
  return entries;
}

/**
 * The document's history as far as it has been read, newest first, from `.../changes`: the newest
 * page at first (down to `reach` when given, so a linked revision is listed however old), the
 * changes of a new `revision` as it comes, and older pages on `showOlder`.
 */
export function useChangePages(path: DocumentPath, revision: number | undefined, reach?: number): { entries: HistoryEntry[]; olderCount: number; showOlder: () => void; error: unknown } {
  const documentKey = `${path.projectId}/${path.typeId}/${path.id}`;
  const [state, setState] = useState<{ documentKey: string; entries: HistoryEntry[]; error?: unknown }>({ documentKey, entries: [] });
  const current = state.documentKey === documentKey ? state : { documentKey, entries: [] };
  const newest = current.entries[0]?.revision;
  const oldest = current.entries[current.entries.length - 1]?.revision;

  const add = useCallback(
    (read: Promise<HistoryEntry[]>) =>
      read.then(
        (more) => setState((previous) => ({ documentKey, entries: merged(previous.documentKey === documentKey ? previous.entries : [], more) })),
        (error: unknown) => setState((previous) => ({ ...previous, error })),
      ),
    [documentKey],
  );

  // The first read, and then only the changes newer than those already listed.
  useEffect(() => {
    if (revision === undefined || (newest !== undefined && newest >= revision)) return;
    const through = newest === undefined ? Math.max(0, Math.min(revision - HISTORY_PAGE + 1, reach ?? revision)) : newest + 1;
    void add(readRange(path, revision, through));
  }, [documentKey, revision, newest, add]);

  const showOlder = useCallback(() => {
    if (oldest === undefined || oldest === 0) return;
    void add(readRange(path, oldest - 1, Math.max(0, oldest - HISTORY_PAGE)));
  }, [documentKey, oldest, add]);

  return { entries: current.entries, olderCount: oldest ?? 0, showOlder, error: current.error };
}
