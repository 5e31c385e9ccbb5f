import { api, unwrap } from '../api/client';
import { useLoad } from './use-load';

/** The type's JSON Schema (`GET .../types/{t}/schema`); undefined while loading or when it has none. */
export function useTypeSchema(projectId: string, typeId: string): { schema: Record<string, unknown> | undefined; error: unknown } {
  const loaded = useLoad(async () => (await unwrap(api.GET('/api/projects/{projectId}/types/{typeId}/schema', { params: { path: { projectId, typeId } } }))).schema, `${projectId}/${typeId}`);
  return { schema: loaded.value, error: loaded.error };
}
