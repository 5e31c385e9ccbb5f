import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@platform/contracts';
import { ID_PATTERN, type DataDeps, type EntityKind, AGENTS_TYPE_ID, agentRecordSchema, agentsCollection } from '@platform/documents';
import { dataError } from '../../errors';
import { registerEntityRoutes } from '../../routes/entity-routes';
import { chatAnswerSchema, conversationSchema } from '../domain/chat-messages';
import type { AiGate } from '../gate';

const id = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

/**
 * Agents of a project: `/api/projects/{projectId}/ai-agents`, with the same list, pull, create,
 * patch and delete routes, history, events and RLS as every other entity collection.
 */
export const aiAgentsKind: EntityKind<{ projectId: typeof id }> = {
  tag: 'ai-agents',
  bodySchema: agentRecordSchema,
  basePath: '/api/projects/:projectId/ai-agents',
  params: z.object({ projectId: id }),
  async resolve(_deps, params) {
    return {
      scope: { projectId: params.projectId, typeId: AGENTS_TYPE_ID, collection: agentsCollection(params.projectId) },
      validate: (fields) => {
        const result = agentRecordSchema.safeParse(fields);
        return result.success ? [] : result.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
      },
    };
  },
};

export const gateBodies = {
  403: z.object({ error: z.string() }).describe('AI is disabled for the project (message in German for users whose language is de)'),
  429: errorBodySchema.describe("`AI_RATE_LIMITED`: the caller's or the project's hourly budget of provider calls is spent (`details.limit`: user or project); `Retry-After` says when the hour ends"),
  502: errorBodySchema.describe('The AI provider failed or answered something unusable'),
  501: errorBodySchema.describe('No AI provider is configured on this server (how the platform is set up: not worth retrying)'),
  503: errorBodySchema.describe('`AI_BUDGETS_UNAVAILABLE`: the calls cannot be counted right now (the key-value store does not answer); no provider call was made'),
  504: errorBodySchema.describe('The AI provider did not answer in time'),
};

/** The agents' CRUD routes and `POST .../ai-agents/{agentId}/chat`. */
export function registerAgentRoutes(scope: FastifyInstance, deps: DataDeps, gate: AiGate): void {
  registerEntityRoutes(scope, deps, aiAgentsKind);

  scope.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/ai-agents/:agentId/chat',
    {
      onRequest: gate.projectRoute,
      schema: {
        tags: ['ai-agents'],
        summary: 'Chat with an agent: its instructions as the system message, then the conversation (needs read on the agent)',
        params: z.object({ projectId: id, agentId: id }),
        body: z.object({ messages: conversationSchema }).strict(),
        response: { 200: chatAnswerSchema, ...gateBodies },
      },
    },
    async (request) => {
      const { projectId, agentId } = request.params;
      const { caller, project } = gate.projectOf(request);
      const scope = (await aiAgentsKind.resolve(deps, { projectId }, { caller, projectAccess: project.access })).scope;
      const stored = await deps.reader.readable(scope, agentId, caller);
      if (stored.deletedAt !== undefined) throw dataError('DATA_ENTITY_NOT_FOUND', { message: 'Agent not found' });
      // Its access is not needed here, and one stored before access rules were strict must not fail the chat.
      const agent = agentRecordSchema.omit({ access: true }).parse(stored);
      const { model, temperature, maxTokens } = agent.modelOptions;
      return gate.complete(request, {
        messages: [...(agent.instructions ? [{ role: 'system' as const, content: agent.instructions }] : []), ...request.body.messages],
        ...(model ? { model } : {}),
        ...(temperature === undefined ? {} : { temperature }),
        ...(maxTokens === undefined ? {} : { maxTokens }),
      });
    },
  );
}
