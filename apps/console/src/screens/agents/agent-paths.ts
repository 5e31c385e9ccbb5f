import { projectPath } from '../../paths';

/** The agents list of a project, or one agent's page. */
export function agentsPath(projectId: string, agentId?: string): string {
  const base = `${projectPath(projectId)}/agents`;
  return agentId === undefined ? base : `${base}/${encodeURIComponent(agentId)}`;
}
