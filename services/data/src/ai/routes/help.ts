import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN } from '@platform/documents';
import { chatAnswerSchema, conversationSchema } from '../domain/chat-messages';
import { helpSystemPrompt, type HelpDocument } from '../domain/help-context';
import type { AiGate } from '../gate';
import { gateBodies } from './agents';

/** Room for the documentation in the system message (characters; about 25k tokens). */
const HELP_CONTEXT_CHARS = 100_000;

/**
 * `POST /api/help/chat`: answers questions about the platform from its own documentation. With a
 * project named (body or query `projectId`, else a Referer under `/projects/{projectId}`), the
 * project's AI setting applies.
 */
export function registerHelpRoute(scope: FastifyInstance, gate: AiGate, documents: () => HelpDocument[]): void {
  scope.withTypeProvider<ZodTypeProvider>().post(
    '/api/help/chat',
    {
      preValidation: gate.helpRoute,
      schema: {
        tags: ['help'],
        summary: 'Ask the help assistant about the platform (answers from llm.txt and the OpenAPI document)',
        querystring: z.object({ projectId: z.string().regex(ID_PATTERN).optional().describe('The project route the question comes from') }),
        body: z.object({ messages: conversationSchema, projectId: z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -').optional() }).strict(),
        response: { 200: chatAnswerSchema, ...gateBodies },
      },
    },
    async (request) => gate.complete(request, { messages: [{ role: 'system', content: helpSystemPrompt(documents(), HELP_CONTEXT_CHARS) }, ...request.body.messages] }),
  );
}
