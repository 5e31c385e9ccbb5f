import { requestTraceContext, requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { mailVerificationLink, verificationMailed, type EmailVerification } from '../users/email-verification';

const tags = ['identity'];

/**
 * Confirming the account's address: the welcome mail carries a link, a new one can be asked for,
 * and opening it marks the address confirmed (`emailVerified` in `GET /api/me`).
 */
export function registerEmailVerificationRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/me/email-verification',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Mail a new link that confirms your email address',
        description: "The newest link works, for a week. 409 `IDENTITY_EMAIL_VERIFIED` when the address is confirmed already; 429 past 5 an hour; 501 where mail is not delivered (production without SMTP_URL).",
        response: { 202: z.object({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      if (!verificationMailed(deps)) throw identityError('IDENTITY_EMAIL_VERIFICATION_UNAVAILABLE');
      const user = await deps.users.require(requireUser(request).userId);
      if (user.emailVerifiedAt !== undefined) throw identityError('IDENTITY_EMAIL_VERIFIED');
      await deps.verificationMailThrottle.take(user.id);
      try {
        await mailVerificationLink(deps, user, requestTraceContext(request));
      } catch (error) {
        request.log.error({ err: error }, 'verification mail could not be sent');
        throw identityError('IDENTITY_MAIL_FAILED', { message: 'The mail could not be sent; try again later' });
      }
      return reply.code(202).send({ message: `A link to confirm ${user.email} is on its way there.` });
    },
  );

  routes.post(
    '/api/auth/verify-email',
    {
      schema: {
        tags,
        summary: 'Confirm the account\'s email address with the token of a mailed link',
        description: 'Needs no session: the link proves the mailbox. 400 `IDENTITY_VERIFICATION_LINK_INVALID` for a link that is unknown, used, expired, retired by a newer one, or for an address the account no longer has.',
        security: [],
        body: z.object({ token: z.string().min(1).max(200).describe('From the link in the mail (after #token=)') }).strict(),
        response: { 200: z.object({ email: z.string() }) },
      },
    },
    async (request) => {
      const value = await deps.verificationTokens.consume(request.body.token);
      const claim = value ? (JSON.parse(value) as EmailVerification) : null;
      const user = claim && (await deps.users.findById(claim.userId));
      if (!claim || !user || user.email !== claim.email) throw identityError('IDENTITY_VERIFICATION_LINK_INVALID', { details: { field: 'token' } });
      const confirmed = await deps.users.markEmailVerified(user.id, user.email);
      // Where confirmation is required, the account's live sessions are limited no more from now on.
      if (confirmed) await deps.sessions.refresh(confirmed);
      return { email: user.email };
    },
  );
}
