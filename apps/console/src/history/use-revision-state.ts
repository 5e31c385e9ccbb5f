import { api, unwrap } from '../api/client';
import { useLoad } from '../components/use-load';
import type { DocumentPath } from './use-change-pages';

/**
 * The document's fields at `revision`, replayed by the server (`.../revisions/{revision}`), so
 * showing or comparing a revision never needs the history before it. A revision's state never
 * changes, so it is read once per revision shown.
 */
export function useRevisionState(path: DocumentPath, revision: number | undefined): { state: Record<string, unknown> | undefined; error: unknown } {
  const key = `${path.projectId}/${path.typeId}/${path.id}@${revision ?? ''}`;
  const loaded = useLoad(
    async () =>
      revision === undefined
        ? undefined
        : (await unwrap(api.GET('/api/projects/{projectId}/types/{typeId}/data/{id}/revisions/{revision}', { params: { path: { ...path, revision } } }))).state,
    key,
  );
  return { state: loaded.value, error: loaded.error };
}
