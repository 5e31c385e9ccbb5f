import { api, unwrap } from '../../api/client';

/** A type as the types screen shows it. */
export interface TypeRecord {
  id: string;
  name?: string;
  revision: number;
  updatedAt: number;
  deletedAt?: number;
  schema?: unknown;
}

/** Every type of the project, deleted ones included (as tombstones), a page of the pull at a time. */
export async function loadTypesWithDeleted(projectId: string): Promise<TypeRecord[]> {
  const found: TypeRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(api.GET('/api/projects/{projectId}/types', { params: { path: { projectId }, query: { updatedAt: 0, limit: 1000, ...(cursor ? { cursor } : {}) } } }));
    found.push(...(page.items as unknown as TypeRecord[]));
    cursor = page.cursor;
  } while (cursor);
  return found.sort((a, b) => a.id.localeCompare(b.id));
}

/** The schema field's text: the JSON, or nothing for a type without one. */
export function schemaText(schema: unknown): string {
  return schema === undefined ? '' : JSON.stringify(schema, null, 2);
}

/** The schema field's value: `{ schema }` to send, or a message for text that is not JSON. */
export function parseSchema(text: string): { schema: unknown } | { error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { schema: undefined };
  try {
    return { schema: JSON.parse(trimmed) };
  } catch (error) {
    return { error: `Not JSON: ${(error as Error).message}` };
  }
}
