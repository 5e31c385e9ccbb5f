import { api, unwrap } from './api/client';
import { projectPath } from './paths';
import { navigate } from './router';

/** Records the project as the most recent (`PUT /api/me/last-project`), then opens it. */
export async function openProject(projectId: string, refreshUser: () => Promise<void>): Promise<void> {
  await unwrap(api.PUT('/api/me/last-project', { body: { projectId } }));
  await refreshUser();
  navigate(projectPath(projectId));
}
