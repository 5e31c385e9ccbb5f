import { match, usePath } from '../router';
import { AgentDetail } from './agents/agent-detail';
import { AgentList } from './agents/agent-list';

/** AI agents of a project: the list at `.../agents`, one agent at `.../agents/{agentId}`. */
export function Agents({ projectId }: { projectId: string }) {
  const agentId = match('/projects/:projectId/agents/:agentId', usePath())?.agentId;
  return agentId === undefined ? <AgentList projectId={projectId} /> : <AgentDetail projectId={projectId} agentId={agentId} />;
}
