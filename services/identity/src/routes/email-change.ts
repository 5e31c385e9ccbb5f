import { requestTraceContext, requireUser, userGuard } from '@platform/kit';
import { DuplicateKeyError } from '@platform/storage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EMAIL_CHANGE_LINKS } from '../auth/mailed-link-tokens';
import { userWithCheckedPassword } from '../auth/password-check';
import { givenPasswordSchema } from '../auth/passwords';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { emailAddress } from '../users/email-address';
import { mailEmailChanged, mailEmailChangeLink } from '../users/email-change-mails';

const tags = ['identity'];

const requestBody = z.object({ email: emailAddress.describe('The new address; a link to confirm it is mailed there'), password: givenPasswordSchema }).strict();
const confirmBody = z.object({ token: z.string().min(1).max(200).describe('From the link in the mail (after #token=)') }).strict();

/** What an email-change link's token carries. */
interface EmailChange {
  userId: string;
  email: string;
}

/**
 * Changing one's email: the new address gets a link, and the change happens only when it is
 * opened, so nobody takes an address they cannot read. The old address is told afterwards.
 */
export function registerEmailChangeRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/me/email',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Ask to change your email: a link to confirm it is mailed to the new address',
        description:
          "The password is checked (a wrong one counts as a failed sign-in). The email stays as it is until the link is opened (`POST /api/auth/email-change/confirm`), within a day; a newer request retires the link of the one before. The answer is the same whether or not an account has the address (the confirmation refuses one that has, 409 `IDENTITY_EMAIL_TAKEN`); 400 `IDENTITY_EMAIL_UNCHANGED` for the current one; 429 past 5 requests an hour; 501 where mail is not delivered (production without SMTP_URL).",
        body: requestBody,
        response: { 202: z.object({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      if (deps.mailer.kind === 'log' && !deps.dev) throw identityError('IDENTITY_EMAIL_CHANGE_UNAVAILABLE');
      const { userId } = requireUser(request);
      const user = await userWithCheckedPassword(deps, request, userId, request.body.password);
      const { email } = request.body;
      if (email === user.email) throw identityError('IDENTITY_EMAIL_UNCHANGED', { details: { field: 'email' } });
      await deps.emailChangeThrottle.take(userId);
      // No lookup of the address: the same answer whether or not an account has it (no "is it
      // registered?" oracle). Confirming a taken one is refused (409): the link lands in its mailbox.
      const change: EmailChange = { userId, email };
      const token = await deps.emailChangeTokens.issue(userId, JSON.stringify(change));
      await mailEmailChangeLink(deps, { to: email, displayName: user.displayName, token }, requestTraceContext(request));
      return reply.code(202).send({ message: `A link to confirm ${email} is on its way there; it works for ${EMAIL_CHANGE_LINKS.ttlMs / 3_600_000} hours. Your email stays ${user.email} until you open it.` });
    },
  );

  routes.post(
    '/api/auth/email-change/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm a new email with the token of the link mailed to it',
        description:
          'Needs no session: the link proves the mailbox. Answers the account\'s new email; the old address is told. 400 `IDENTITY_EMAIL_CHANGE_LINK_INVALID` for a link that is unknown, used, expired or retired by a newer one; 409 `IDENTITY_EMAIL_TAKEN` when another account took the address meanwhile.',
        security: [],
        body: confirmBody,
        response: { 200: z.object({ email: z.string() }) },
      },
    },
    async (request) => {
      const value = await deps.emailChangeTokens.consume(request.body.token);
      const change = value ? (JSON.parse(value) as EmailChange) : null;
      const before = change && (await deps.users.findById(change.userId));
      if (!change || !before) throw identityError('IDENTITY_EMAIL_CHANGE_LINK_INVALID', { details: { field: 'token' } });
      let changed;
      try {
        changed = await deps.users.update(change.userId, { $set: { email: change.email, emailVerifiedAt: deps.clock() } });
      } catch (error) {
        throw error instanceof DuplicateKeyError ? identityError('IDENTITY_EMAIL_TAKEN') : error;
      }
      // The new address is confirmed by the link: sessions limited by an unconfirmed one are no more.
      if (changed) await deps.sessions.refresh(changed);
      // A reset link mailed to the old address no longer reaches the account's owner.
      await deps.resetTokens.retire(change.userId);
      request.log.info({ userId: change.userId }, 'email changed');
      await mailEmailChanged(deps, { to: before.email, displayName: before.displayName, email: change.email }, requestTraceContext(request)).catch((error: unknown) =>
        request.log.warn({ err: error }, 'the notice to the old address could not be sent'),
      );
      return { email: change.email };
    },
  );
}
