import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';

/**
 * `GET /api/admin/dev/platform-owner/{token}`: the development owner promotion. No session
 * needed; the token and development mode guard it. Outside development it answers 404 with an
 * empty body, as if it did not exist.
 */
export function registerDevPromotionRoute(app: FastifyInstance, deps: IdentityDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/dev/platform-owner/:token',
    {
      schema: {
        tags: ['identity'],
        summary: 'Development only: redeem the one-time owner-promotion token from the server log',
        security: [],
        // The router refuses path parameters over 100 characters (414) before this schema sees them.
        params: z.object({ token: z.string().max(100) }),
        response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
      },
    },
    async (request, reply) => {
      // An empty 404, outside the declared responses on purpose: the route pretends not to exist.
      if (!deps.dev) return (reply as FastifyReply).code(404).send();
      const { token } = request.params;
      const userId = await deps.promotions.pendingUser(token);
      if (!userId) throw identityError('IDENTITY_PROMOTION_TOKEN_INVALID');
      if ((await deps.users.count()) !== 1) throw identityError('IDENTITY_PROMOTION_NOT_SINGLE_USER');
      if (!(await deps.promotions.consume(token))) throw identityError('IDENTITY_PROMOTION_TOKEN_INVALID');
      const user = await deps.users.update(userId, { $set: { platformOwner: true } });
      if (!user) throw identityError('IDENTITY_PROMOTION_TOKEN_INVALID');
      await deps.sessions.refresh(user);
      request.log.warn({ userId }, 'development owner promotion: user is now platform owner');
      return { success: true as const, message: `${user.displayName} is now a platform owner` };
    },
  );
}
