import { platformLlmText, widgetRegistry, widgetsLlmText, WIDGETS_LLM_PATH, type WidgetRegistry } from '@platform/widgets';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { agentGuideSections } from './agent-guide';

export const LLM_TEXT_PATHS = ['/llm.txt', WIDGETS_LLM_PATH] as const;

/**
 * `GET /llm.txt` and `GET /docs/widgets/llm.txt`: plain-text documentation for agents, generated
 * from the widget registry when the gateway starts, so it cannot drift from the registered widgets;
 * `/llm.txt` also carries the sign-in, sync and guides sections (agent-guide.ts).
 * No session is needed (both paths are on the session bypass list).
 */
export function registerAgentDocsRoutes(app: FastifyInstance, registry: WidgetRegistry = widgetRegistry): void {
  const documents: Record<(typeof LLM_TEXT_PATHS)[number], { summary: string; text: string }> = {
    '/llm.txt': { summary: 'What the platform is, how to sign in and sync, where the guides and the widget catalogue are (for agents)', text: platformLlmText(registry, agentGuideSections) },
    [WIDGETS_LLM_PATH]: { summary: 'Every catalogue widget with its configuration properties, types and defaults (for agents)', text: widgetsLlmText(registry) },
  };
  for (const path of LLM_TEXT_PATHS) {
    const { summary, text } = documents[path];
    app.get(
      path,
      {
        schema: { tags: ['platform'], summary, security: [], response: { 200: z.string().describe('text/plain; charset=utf-8') } },
        serializerCompiler: () => (data) => data as string,
      },
      async (_request, reply) => reply.type('text/plain; charset=utf-8').send(text),
    );
  }
}
