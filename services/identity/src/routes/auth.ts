import { randomUUID } from 'node:crypto';
import { requestTraceContext } from '@platform/kit';
import { DuplicateKeyError } from '@platform/storage';
import type { TraceContext } from '@platform/telemetry';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openCheckedSession } from '../auth/checked-session';
import { givenPasswordSchema, hashPassword, newPasswordSchema, spendVerificationTime, verifyPassword } from '../auth/passwords';
import { requireSecondFactor } from '../auth/second-factor-check';
import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie';
import { describeDevice, requestDevice } from '../auth/session-device';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import { PROMOTION_TOKEN_TTL_MS } from '../promotion/promotion-tokens';
import { accountEmail, emailAddress } from '../users/email-address';
import { verificationMailed, verificationText } from '../users/email-verification';
import { withoutSecret } from '../users/user-repository';
import { credentialGenerationOf, currentUserSchema, DISPLAY_NAME_MAX_LENGTH, toCurrentUser, type StoredUser, type UserRecord } from '../users/user-record';
import { noticeAccountChange } from '../users/security-notices';

const registerBody = z.object({
  email: emailAddress,
  password: newPasswordSchema,
  displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX_LENGTH).optional(),
  language: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'a language code such as en or de').optional(),
})
  // A misspelt `displayname` or `lang` would otherwise be dropped, and the account made without it.
  .strict();

const loginBody = z.object({
  email: accountEmail,
  password: givenPasswordSchema,
  code: z.string().trim().min(1).max(20).optional().describe('With two-step sign-in on: the code from the authenticator app, or an unused recovery code'),
});

export const sessionResponse = z.object({
  user: currentUserSchema,
  token: z.string().describe('The session token, for clients that send `Authorization: Bearer <token>` instead of the cookie'),
  expiresAt: z.number().describe('Absolute expiry, Unix ms: 30 days after sign-in'),
});

/** Sign-in, registration and sign-out (the spec leaves them "not shown"; see docs/identity.md). */
export function registerAuthRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/auth/register',
    {
      schema: {
        tags: ['identity'],
        summary: 'Create an account and sign in',
        description: 'Registrations per client address are limited (20 an hour by default); over the limit the answer is 429 with Retry-After.',
        security: [],
        body: registerBody,
        response: { 201: sessionResponse },
      },
    },
    async (request, reply) => {
      await deps.registrations.takeAttempt(request.ip);
      const { email, password, displayName, language } = request.body;
      const now = deps.clock();
      const user: UserRecord = {
        id: randomUUID(),
        email,
        passwordHash: await hashPassword(password),
        displayName: displayName ?? email.split('@')[0]!,
        profileFields: {},
        recentProjects: {},
        platformOwner: false,
        ...(language ? { language } : {}),
        createdAt: now,
        updatedAt: now,
        revision: 0,
      };
      const stored = withoutSecret(user);
      // The session first: with the session store down nothing is created and the caller gets 503.
      const { token, session } = await deps.sessions.create(stored, requestDevice(request));
      try {
        await deps.users.insert(user);
      } catch (error) {
        await deps.sessions.revoke(token);
        throw error instanceof DuplicateKeyError ? identityError('IDENTITY_EMAIL_TAKEN') : error;
      }
      await deps.tenants.personalTenant(stored);
      await afterRegistration(deps, stored, request.log, requestTraceContext(request));
      setSessionCookie(reply, token, session.expiresAt, deps.dev);
      return reply.code(201).send({ user: toCurrentUser(stored, deps.requireConfirmedEmail), token, expiresAt: session.expiresAt });
    },
  );

  routes.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['identity'],
        summary: 'Sign in with email and password (and a code, with two-step sign-in on)',
        description:
          'Failures answer one generic 401; repeated failures per account or per IP answer 429 with Retry-After. With two-step sign-in on, the right password without `code` answers 401 `IDENTITY_TWO_FACTOR_REQUIRED`, and a wrong or used code 401 `IDENTITY_TWO_FACTOR_CODE_INVALID` (each counted as a failed sign-in); send the same body again with `code`.',
        security: [],
        body: loginBody,
        response: { 200: sessionResponse },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      await deps.throttle.takeAttempt(email, request.ip);
      const user = await deps.users.findWithSecretByEmail(email);
      const valid = user ? await verifyPassword(user.passwordHash, password) : await spendVerificationTime(password).then(() => false);
      if (!user || !valid) throw identityError('IDENTITY_INVALID_CREDENTIALS');
      await requireSecondFactor(deps, user, request.body.code);
      await deps.throttle.recordSuccess(email, request.ip);
      const stored = withoutSecret(user);
      const device = requestDevice(request);
      // A password changed (or the account deleted) since the check above ends the session it opened.
      const opened = await openCheckedSession(deps, stored, device, credentialGenerationOf(user));
      if (!opened) throw identityError('IDENTITY_INVALID_CREDENTIALS');
      const { token, session, knownDevice } = opened;
      setSessionCookie(reply, token, session.expiresAt, deps.dev);
      if (!knownDevice) noticeAccountChange(deps, stored, { signedInFrom: { device: describeDevice(device.userAgent) ?? 'a program that did not say what it is', address: device.address } }, requestTraceContext(request));
      return { user: toCurrentUser(stored, deps.requireConfirmedEmail), token, expiresAt: session.expiresAt };
    },
  );

  routes.post(
    '/api/auth/logout',
    { schema: { tags: ['identity'], summary: 'End the current session (idempotent)', response: { 204: z.undefined().describe('Signed out') } } },
    async (request, reply) => {
      const caller = request.principal;
      if (caller.kind === 'user') await deps.sessions.revokeById(caller.userId, caller.sessionId);
      clearSessionCookie(reply, deps.dev);
      return reply.code(204).send();
    },
  );
}

/**
 * The welcome mail (with the link that confirms the address, where mail is delivered) and, for the first user in development, the owner-promotion link in the log: a
 * full URL ending the message, so a terminal shows it whole and clickable.
 */
async function afterRegistration(deps: IdentityDeps, user: StoredUser, log: FastifyInstance['log'], traceContext: TraceContext | undefined): Promise<void> {
  if (deps.dev && (await deps.users.count()) === 1) {
    const token = await deps.promotions.issue(user.id);
    const promotionPath = `/api/admin/dev/platform-owner/${token}`;
    const promotionUrl = `${deps.publicUrl()}${promotionPath}`;
    log.warn({ promotionPath, promotionUrl, email: user.email, validMinutes: PROMOTION_TOKEN_TTL_MS / 60_000 }, `Promote yourself to platform owner: ${promotionUrl}`);
  }
  try {
    const confirm = verificationMailed(deps) ? `\n\n${await verificationText(deps, user)}` : '';
    await deps.mailer.send({ to: user.email, subject: 'Welcome to the platform', text: `Hello ${user.displayName}, your account is ready.${confirm}` }, { traceContext });
  } catch (error) {
    log.error({ err: error }, 'welcome mail could not be sent');
  }
}
