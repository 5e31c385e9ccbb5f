import type { ProjectCaller } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ID_PATTERN, currentTypeSchema, typeIdSchema, publicView, TypeDirectory, type DataDeps } from '@platform/documents';
import { dataError } from '../../errors';
import { readExtraction } from '../domain/extraction';
import type { AiGate } from '../gate';
import { gateBodies } from './agents';

const id = z.string().regex(ID_PATTERN, 'ids hold 1 to 64 letters, digits, _ or -');

const extractBody = z
  .object({
    text: z.string().min(1).max(100_000).optional().describe('The text to extract a document from'),
    documentId: id.optional().describe('Instead of text: a document whose content is the source'),
    sourceTypeId: typeIdSchema.optional().describe('Type of documentId (default: the type extracted into)'),
    field: z.string().min(1).max(64).optional().describe('Field of that document holding the text (default: the whole document as JSON)'),
  })
  .strict()
  .refine((body) => (body.text === undefined) !== (body.documentId === undefined), { message: 'give either text or documentId', path: ['text'] })
  .refine((body) => body.documentId !== undefined || (body.sourceTypeId === undefined && body.field === undefined), {
    message: 'sourceTypeId and field go with documentId',
    path: ['documentId'],
  });

/** Server-owned fields that say nothing about the content. */
const BOOKKEEPING = new Set(['id', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'access']);

async function sourceText(deps: DataDeps, projectId: string, caller: ProjectCaller, body: z.infer<typeof extractBody>, typeId: string): Promise<string> {
  if (body.text !== undefined) return body.text;
  const sourceType = body.sourceTypeId ?? typeId;
  await deps.types.requireReadable(projectId, sourceType, caller);
  const document = await deps.reader.readable(TypeDirectory.documentsScope(projectId, sourceType), body.documentId as string, caller);
  if (document.deletedAt !== undefined) throw dataError('DATA_ENTITY_NOT_FOUND', { message: 'Source document not found' });
  const content = Object.fromEntries(Object.entries(publicView(document)).filter(([key]) => !BOOKKEEPING.has(key)));
  if (body.field === undefined) return JSON.stringify(content, null, 2);
  const value = content[body.field];
  if (typeof value !== 'string' || !value) throw dataError('AI_SOURCE_NOT_TEXT', { message: `Field ${body.field} of the source document is not text` });
  return value;
}

/**
 * `POST .../types/{typeId}/ai-extract`: asks the model for a document of the type (structured
 * output with the type's schema as JSON Schema) and answers it as `{data}` after validating it
 * with the type's own rules; nothing is stored. A model answer that does not validate is 400
 * with the problems and the answer, so the caller can retry or fix it.
 */
export function registerExtractRoute(scope: FastifyInstance, deps: DataDeps, gate: AiGate): void {
  scope.withTypeProvider<ZodTypeProvider>().post(
    '/api/projects/:projectId/types/:typeId/ai-extract',
    {
      onRequest: gate.projectRoute,
      schema: {
        tags: ['types'],
        summary: 'Extract a document of the type from text (or from another document) with the AI model, validated by the type schema',
        params: z.object({ projectId: id, typeId: typeIdSchema }),
        body: extractBody,
        response: { 200: z.object({ data: z.record(z.string(), z.unknown()) }), ...gateBodies },
      },
    },
    async (request) => {
      const { projectId, typeId } = request.params;
      const { caller } = gate.projectOf(request);
      const type = await deps.types.requireReadable(projectId, typeId, caller);
      const schema = currentTypeSchema(type.schema);
      if (!schema || Object.keys(schema.properties ?? {}).length === 0) throw dataError('AI_TYPE_HAS_NO_SCHEMA');
      const text = await sourceText(deps, projectId, caller, request.body, typeId);

      const completion = await gate.complete(request, {
        messages: [
          {
            role: 'system',
            content: [
              `Extract one record of the type "${type.name}" from the user's text.`,
              'Answer with a single JSON object and nothing else, following this JSON Schema.',
              'Leave out fields the text does not give; never invent values.',
              JSON.stringify(schema),
            ].join('\n'),
          },
          { role: 'user', content: text },
        ],
        jsonSchema: { name: 'document', schema: { ...schema } },
        temperature: 0,
      });
      const result = readExtraction(schema, completion.message.content);
      if (!result.ok) {
        const first = result.problems[0] as { field: string; message: string };
        throw dataError('AI_EXTRACT_INVALID', {
          message: `The model's answer does not match the type schema: ${first.field} ${first.message}`,
          details: { problems: result.problems, answer: completion.message.content.slice(0, 10_000) },
        });
      }
      return { data: result.data };
    },
  );
}
