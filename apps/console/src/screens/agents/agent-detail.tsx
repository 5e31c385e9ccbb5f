import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ConfirmButton } from '../../components/confirm-button';
import { LoadError } from '../../components/load-error';
import { useLoad } from '../../components/use-load';
import { Link, navigate } from '../../router';
import { AgentChat } from './agent-chat';
import { agentsPath } from './agent-paths';
import { loadAgent } from './agent-record';
import { AgentSettings } from './agent-settings';

/** One agent: its settings, a chat to try it, and deleting it. */
export function AgentDetail({ projectId, agentId }: { projectId: string; agentId: string }) {
  const agent = useLoad(() => loadAgent(projectId, agentId), `${projectId}/${agentId}`);
  const [deleteError, setDeleteError] = useState<unknown>();
  const remove = async () => {
    try {
      await unwrap(api.DELETE('/api/projects/{projectId}/ai-agents/{id}', { params: { path: { projectId, id: agentId } } }));
      navigate(agentsPath(projectId));
    } catch (error) {
      setDeleteError(error);
    }
  };
  return (
    <main>
      <p className="crumbs">
        <Link to={agentsPath(projectId)}>Agents</Link> / {agent.value?.name ?? agentId}
      </p>
      <h1>{agent.value?.name ?? agentId}</h1>
      <LoadError error={agent.error ?? deleteError} />
      {agent.value && (
        <>
          <AgentSettings projectId={projectId} agent={agent.value} onSaved={agent.reload} />
          <AgentChat projectId={projectId} agent={agent.value} />
          <ConfirmButton label="Delete agent" question="Delete this agent? Its history stays in the audit trail." confirmLabel="Delete for good" onConfirm={() => void remove()} />
        </>
      )}
    </main>
  );
}
