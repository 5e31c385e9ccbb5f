import { requireUser } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blockRegistry } from '../blocks/registry';
import { actionSocketSchema } from '../domain/sockets';

const blockSchema = z.object({
  name: z.string(),
  description: z.string(),
  sockets: z.array(actionSocketSchema),
  requiredInputs: z.array(z.string()).describe('Settings needed in the configuration or through a connection into the socket of that name'),
  configurationSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of the block configuration'),
});

/** Computed once: the registry is fixed for the life of the process. */
const catalogue = [...blockRegistry.values()].map((block) => ({
  name: block.name,
  description: block.description,
  sockets: block.sockets,
  requiredInputs: block.requiredInputs,
  configurationSchema: z.toJSONSchema(block.configuration, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
}));

/** GET /api/actions/blocks: the registered blocks with their sockets and configuration schemas, for the editor. */
export function registerBlockRoutes(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/actions/blocks',
    { schema: { tags: ['actions'], summary: 'Registered blocks: sockets and configuration schema of each', response: { 200: z.object({ blocks: z.array(blockSchema) }) } } },
    async (request) => {
      requireUser(request);
      return { blocks: catalogue };
    },
  );
}
