import { userGuard, type ServiceContext } from '@platform/kit';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const currentUserSchema = z.object({ id: z.string(), displayName: z.string().optional(), platformOwner: z.boolean() });

/** `GET /api/me`: the signed-in user (401 through the user guard without one). */
export const meRoutes: FastifyPluginAsync<ServiceContext> = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/me',
    { preHandler: userGuard, schema: { tags: ['identity'], summary: 'The current user', response: { 200: currentUserSchema } } },
    async (request) => {
      const principal = request.principal;
      if (principal.kind !== 'user') throw new Error('unreachable: guarded route');
      return { id: principal.userId, displayName: principal.displayName, platformOwner: principal.platformOwner };
    },
  );
};
