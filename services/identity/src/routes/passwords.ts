import { requireUser, requestTraceContext, userGuard } from '@platform/kit';
import type { TraceContext } from '@platform/telemetry';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openCheckedSession } from '../auth/checked-session';
import { userWithCheckedPassword } from '../auth/password-check';
import { givenPasswordSchema, hashPassword, newPasswordSchema } from '../auth/passwords';
import { PASSWORD_RESET_LINKS } from '../auth/mailed-link-tokens';
import { requireSecondFactor } from '../auth/second-factor-check';
import { setSessionCookie } from '../auth/session-cookie';
import { requestDevice } from '../auth/session-device';
import { identityError } from '../errors';
import { accountEmail } from '../users/email-address';
import type { IdentityDeps } from '../identity-deps';
import { noticeAccountChange } from '../users/security-notices';
import { toCurrentUser } from '../users/user-record';
import { sessionResponse } from './auth';
import { endedSessionsResponse } from './sessions';

/** Where a reset mail's link leads: the console's page, the token in the fragment so no server or proxy log ever holds it. */
const RESET_PAGE_PATH = '/console/reset-password';

const changeBody = z.object({ currentPassword: givenPasswordSchema, newPassword: newPasswordSchema }).strict();
const resetRequestBody = z.object({ email: accountEmail }).strict();
const resetBody = z
  .object({
    token: z.string().min(1).max(200).describe('From the link in the mail (after #token=)'),
    password: newPasswordSchema,
    code: z.string().trim().min(1).max(20).optional().describe('With two-step sign-in on: the code from the authenticator app, or an unused recovery code'),
  })
  .strict();

const RESET_REQUESTED = 'If an account exists for this email, a link to choose a new password is on its way; it works for an hour.';

/**
 * A signed-in user changes their password; someone who forgot theirs asks for a link by mail and
 * chooses a new one with it. Either way the sessions the old password opened end (docs/identity.md).
 */
export function registerPasswordRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.put(
    '/api/me/password',
    {
      preHandler: userGuard,
      schema: {
        tags: ['identity'],
        summary: 'Change your password (the current one is checked); your other sessions end',
        description: 'Wrong current passwords count as failed sign-ins of the account: past the limit the answer is 429 with Retry-After.',
        body: changeBody,
        response: { 200: endedSessionsResponse },
      },
    },
    async (request) => {
      const { userId, sessionId } = requireUser(request);
      const user = await userWithCheckedPassword(deps, request, userId, request.body.currentPassword, 'currentPassword');
      // Only over the hash just checked: a reset (or another change) in between wins, and this one is refused.
      if ((await deps.users.setPasswordHash(userId, await hashPassword(request.body.newPassword), { replacing: user.passwordHash })) === null) {
        throw (await deps.users.findById(userId)) ? identityError('IDENTITY_WRONG_PASSWORD', { details: { field: 'currentPassword' } }) : identityError('IDENTITY_USER_NOT_FOUND');
      }
      // After the new generation: a sign-in that checked the old password and wrote its session later ends it itself (openCheckedSession).
      // Access tokens stay: a routine change does not break the programs that use them (a reset ends them).
      const endedSessions = await deps.sessions.revokeAll(userId, { keep: sessionId, keepTokens: true });
      // Links mailed under the old password stop working: an email change someone asked with it, a reset link in the mailbox.
      await retireMailedLinks(deps, userId);
      noticeAccountChange(deps, user, 'password-changed', requestTraceContext(request));
      return { endedSessions };
    },
  );

  routes.post(
    '/api/auth/password-reset',
    {
      schema: {
        tags: ['identity'],
        summary: 'Ask for a link to choose a new password, sent by mail',
        description:
          'Answers 202 with the same message whether or not an account has this email. The link works once, for an hour; a newer one retires it. Requests per client address are limited (10 an hour), and mails per account (3 an hour). 501 when mail is not delivered here (production without SMTP_URL).',
        security: [],
        body: resetRequestBody,
        response: { 202: z.object({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      // Outside development without SMTP, mails go to the log: a reset link there would let whoever reads the log take the account.
      if (deps.mailer.kind === 'log' && !deps.dev) throw identityError('IDENTITY_PASSWORD_RESET_UNAVAILABLE');
      await deps.resetThrottle.takeRequest(request.ip);
      // Answered before the account is looked up, so the answer's time does not tell whether it exists.
      void sendResetMail(deps, request.body.email, request.log, requestTraceContext(request));
      return reply.code(202).send({ message: RESET_REQUESTED });
    },
  );

  routes.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        tags: ['identity'],
        summary: 'Choose a new password with the token of a reset link; every session ends and a new one starts',
        description:
          'With two-step sign-in on, the link alone is not enough: without `code` the answer is 401 `IDENTITY_TWO_FACTOR_REQUIRED` and the link keeps working; a wrong code is 401 `IDENTITY_TWO_FACTOR_CODE_INVALID` (counted as a failed sign-in).',
        security: [],
        body: resetBody,
        response: { 200: sessionResponse },
      },
    },
    async (request, reply) => {
      // A mailbox alone does not pass two-step sign-in: the code is checked before the link is used up.
      const pending = await deps.resetTokens.peek(request.body.token);
      const holder = pending ? await deps.users.findWithSecretById(pending) : null;
      if (holder?.twoFactor) {
        await deps.throttle.takeAttempt(holder.email, request.ip);
        await requireSecondFactor(deps, holder, request.body.code);
      }
      const userId = await deps.resetTokens.consume(request.body.token);
      const found = userId ? await deps.users.findById(userId) : null;
      if (!found) throw identityError('IDENTITY_RESET_LINK_INVALID', { details: { field: 'token' } });
      const generation = await deps.users.setPasswordHash(found.id, await hashPassword(request.body.password));
      if (generation === null) throw identityError('IDENTITY_RESET_LINK_INVALID', { details: { field: 'token' } });
      // The link came by mail: the address is the owner's.
      const user = (await deps.users.markEmailVerified(found.id, found.email)) ?? found;
      // After the new generation: a sign-in that checked the old password and wrote its session later ends it itself (openCheckedSession).
      await deps.sessions.revokeAll(user.id);
      // An email change asked with the old password (by whoever knew it) stops working with it.
      await retireMailedLinks(deps, user.id);
      // The mail proved the account's owner: sign-in failures counted against it are forgiven.
      await deps.throttle.clearAccount(user.email);
      // This session too ends if the credentials changed again meanwhile (another reset, the account deleted).
      const opened = await openCheckedSession(deps, user, requestDevice(request), generation);
      if (!opened) throw identityError('IDENTITY_INVALID_CREDENTIALS');
      const { token, session } = opened;
      setSessionCookie(reply, token, session.expiresAt, deps.dev);
      return { user: toCurrentUser(user, deps.requireConfirmedEmail), token, expiresAt: session.expiresAt };
    },
  );
}

/** The account's pending reset and email-change links: its password changed, so what was asked under the old one no longer holds. */
async function retireMailedLinks(deps: IdentityDeps, userId: string): Promise<void> {
  await Promise.all([deps.resetTokens.retire(userId), deps.emailChangeTokens.retire(userId)]);
}

async function sendResetMail(deps: IdentityDeps, email: string, log: FastifyBaseLogger, traceContext: TraceContext | undefined): Promise<void> {
  try {
    const user = await deps.users.findByEmail(email);
    if (!user || !(await deps.resetThrottle.takeMail(email))) return;
    const token = await deps.resetTokens.issue(user.id);
    const link = `${deps.publicUrl()}${RESET_PAGE_PATH}#token=${token}`;
    const minutes = PASSWORD_RESET_LINKS.ttlMs / 60_000;
    const text = [
      `Hello ${user.displayName},`,
      '',
      `someone, hopefully you, asked to choose a new password for your account at ${deps.publicUrl()}.`,
      `Open this link within ${minutes} minutes to choose it:`,
      '',
      link,
      '',
      'Choosing a new password signs you out everywhere. If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n');
    await deps.mailer.send({ to: user.email, subject: 'Choose a new password', text }, { traceContext });
  } catch (error) {
    log.error({ err: error }, 'password reset mail could not be sent');
  }
}
