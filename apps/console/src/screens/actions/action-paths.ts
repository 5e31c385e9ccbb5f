import { projectPath } from '../../paths';

/** Console paths of a project's actions. */
export function actionsPath(projectId: string, actionId?: string, view?: 'runs'): string {
  const base = `${projectPath(projectId)}/actions`;
  if (!actionId) return base;
  return `${base}/${encodeURIComponent(actionId)}${view ? `/${view}` : ''}`;
}
