import { api, unwrap } from '../api/client';

/** An application as the data route answers it (the spec's fields; routes' shape is the editor's). */
export interface Application {
  id: string;
  revision: number;
  title?: unknown;
  routes?: unknown;
  publishedVersionNumber?: number;
  publishedAt?: number;
  [field: string]: unknown;
}

/** The project's live applications, in id order (the data route's pages, followed to the end). */
export async function loadApplications(projectId: string): Promise<Application[]> {
  const found: Application[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(api.GET('/api/projects/{projectId}/applications', { params: { path: { projectId }, query: { limit: 1000, ...(cursor ? { cursor } : {}) } } }));
    for (const item of page.items) if (item.deletedAt === undefined) found.push(item as Application);
    cursor = page.cursor;
  } while (cursor);
  return found.sort((a, b) => a.id.localeCompare(b.id));
}
