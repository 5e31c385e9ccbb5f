import { accessSchema } from '@platform/contracts';
import { z } from 'zod';

/** What a caller may choose per agent; the server's AI_MODEL applies when `model` is absent. */
export const modelOptionsSchema = z
  .object({
    model: z.string().min(1).max(200).optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(100_000).optional(),
  })
  .strict();

/**
 * An AI agent (an entity of `tenant-{projectId}-ai-agents`): a name, the instructions sent as the
 * system message of every chat, and model options. RLS `access` works as on every entity: read
 * decides who sees and chats with the agent. Unknown extra fields are kept, as on types.
 */
export const agentRecordSchema = z
  .object({
    name: z.string().min(1).max(200),
    instructions: z.string().max(20_000).default(''),
    modelOptions: modelOptionsSchema.default({}),
    access: accessSchema.optional(),
  })
  .loose();

/** Collection of a project's agents; `ai-agents` is a reserved type id, so no type can share it. */
export function agentsCollection(projectId: string): string {
  return `tenant-${projectId}-ai-agents`;
}

export const AGENTS_TYPE_ID = 'ai-agents';
