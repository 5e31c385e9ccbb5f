import { api, unwrap } from '../../api/client';

/** An AI agent as the console shows it (docs/ai.md, Agents). */
export interface Agent {
  id: string;
  revision: number;
  updatedAt: number;
  deletedAt?: number;
  name: string;
  instructions?: string;
  modelOptions?: { model?: string; temperature?: number; maxTokens?: number };
}

/** The project's live agents the caller may read, by name. */
export async function loadAgents(projectId: string): Promise<Agent[]> {
  const { items } = await unwrap(api.GET('/api/projects/{projectId}/ai-agents', { params: { path: { projectId } } }));
  return (items as unknown as Agent[]).filter((agent) => agent.deletedAt === undefined).sort((a, b) => a.name.localeCompare(b.name));
}

export async function loadAgent(projectId: string, agentId: string): Promise<Agent> {
  return (await unwrap(api.GET('/api/projects/{projectId}/ai-agents/{id}', { params: { path: { projectId, id: agentId } } }))) as unknown as Agent;
}
