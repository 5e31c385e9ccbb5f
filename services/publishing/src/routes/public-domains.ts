import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publishingError } from '../errors';
import type { PublishingDeps } from '../publishing-deps';
import { hostnameSchema, publicResolutionSchema } from './schemas';

/**
 * `GET /api/public/domains/{hostname}`: no session needed (anonymous callers reach it through the
 * gateway like any other). Answers the served version's public view from the resolution cache,
 * serialized once per cached entry.
 */
export function registerPublicDomainRoutes(app: FastifyInstance, deps: PublishingDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/public/domains/:hostname',
    {
      schema: {
        tags: ['domains'],
        summary: 'The version a hostname serves: pinned, else latest published; 404 when nothing is published (no session)',
        security: [],
        params: z.object({ hostname: hostnameSchema }),
        response: { 200: publicResolutionSchema },
      },
    },
    async (request, reply) => {
      const resolution = await deps.resolutions.get(request.params.hostname);
      if (!resolution.found) throw publishingError(resolution.code);
      // Serialized (and shaped by publicVersionView) when it was cached; fastify sends a JSON string
      // as it is, so the typed reply, which expects the object, is widened for this one send.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(resolution.json);
    },
  );
}
