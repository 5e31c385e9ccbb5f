import { api, unwrap } from '../../api/client';
import { ChatPanel, type ChatMessage } from '../../components/chat-panel';
import type { Agent } from './agent-record';

/** *Chat with <name>*: tries the agent (POST .../ai-agents/{id}/chat), its instructions as the system message. */
export function AgentChat({ projectId, agent }: { projectId: string; agent: Agent }) {
  const ask = async (messages: ChatMessage[]) =>
    (await unwrap(api.POST('/api/projects/{projectId}/ai-agents/{agentId}/chat', { params: { path: { projectId, agentId: agent.id } }, body: { messages } }))).message.content;
  return <ChatPanel label={`Chat with ${agent.name}`} assistant={agent.name} hint="Try the agent here: the conversation stays in this page and is gone when you leave it." ask={ask} />;
}
