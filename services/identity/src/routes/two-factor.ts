import { requestTraceContext, requireUser, userGuard } from '@platform/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkPassword } from '../auth/password-check';
import { givenPasswordSchema } from '../auth/passwords';
import { enrollment, newRecoveryCodes, newTwoFactorSecret, totpCounter } from '../auth/two-factor';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import type { UserRecord } from '../users/user-record';
import { noticeAccountChange } from '../users/security-notices';

const tags = ['identity'];
const passwordBody = z.object({ password: givenPasswordSchema }).strict();
const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()).describe('Shown once: each signs in once in place of a code') });

/**
 * Two-step sign-in (TOTP, RFC 6238): start with the password (a secret and its QR code), confirm
 * with a first code (recovery codes, shown once), turn off or renew the recovery codes with the
 * password. Only from a signed-in session: an access token cannot change how its owner signs in.
 */
export function registerTwoFactorRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** The user of a signed-in session (not an access token), secrets included. */
  async function signedInUser(request: FastifyRequest): Promise<UserRecord> {
    const { userId, sessionId } = requireUser(request);
    if ((await deps.sessions.kind(userId, sessionId)) !== 'session') throw identityError('IDENTITY_TOKEN_NEEDS_SIGN_IN', { message: 'Two-step sign-in is changed from a signed-in session, not with an access token' });
    const user = await deps.users.findWithSecretById(userId);
    if (!user) throw identityError('IDENTITY_USER_NOT_FOUND');
    return user;
  }

  /** The signed-in user, its password checked like a sign-in's (a wrong one counts as a failed sign-in). */
  async function withPassword(request: FastifyRequest, password: string): Promise<UserRecord> {
    const user = await signedInUser(request);
    await checkPassword(deps, request, user, password);
    return user;
  }

  routes.post(
    '/api/me/two-factor',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Start turning on two-step sign-in: a new secret for an authenticator app',
        description:
          "Answers the secret (base32), its `otpauth://` URI and that URI as a QR code (SVG). Nothing changes at sign-in until a first code confirms it (`POST /api/me/two-factor/confirm`); starting again replaces the secret. 409 `IDENTITY_TWO_FACTOR_ON` while it is on.",
        body: passwordBody,
        response: { 200: z.object({ secret: z.string(), otpauthUri: z.string(), qrCodeSvg: z.string() }) },
      },
    },
    async (request) => {
      const user = await withPassword(request, request.body.password);
      if (user.twoFactor) throw identityError('IDENTITY_TWO_FACTOR_ON');
      const secret = newTwoFactorSecret();
      await deps.users.setPendingTwoFactor(user.id, { secret, createdAt: deps.clock() });
      return { secret, ...(await enrollment(secret, { issuer: new URL(deps.publicUrl()).hostname, label: user.email })) };
    },
  );

  routes.post(
    '/api/me/two-factor/confirm',
    {
      preHandler: userGuard,
      schema: {
        tags,
        summary: 'Turn on two-step sign-in with a first code from the authenticator app',
        description: 'Answers ten recovery codes, shown once. 400 `IDENTITY_TWO_FACTOR_CONFIRMATION_FAILED` for a wrong code (counted as a failed sign-in); 409 `IDENTITY_TWO_FACTOR_NOT_STARTED` without a started secret.',
        body: z.object({ code: z.string().trim().min(1).max(20) }).strict(),
        response: { 200: recoveryCodesResponse },
      },
    },
    async (request) => {
      const user = await signedInUser(request);
      if (user.twoFactor) throw identityError('IDENTITY_TWO_FACTOR_ON');
      if (!user.twoFactorPending) throw identityError('IDENTITY_TWO_FACTOR_NOT_STARTED');
      await deps.throttle.takeAttempt(user.email, request.ip);
      const now = deps.clock();
      const counter = totpCounter(user.twoFactorPending.secret, request.body.code.replace(/\s+/g, ''), now);
      if (counter === null) throw identityError('IDENTITY_TWO_FACTOR_CONFIRMATION_FAILED', { details: { field: 'code' } });
      await deps.throttle.recordSuccess(user.email, request.ip);
      const recovery = newRecoveryCodes();
      if (!(await deps.users.enableTwoFactor(user.id, { secret: user.twoFactorPending.secret, lastCounter: counter, recoveryCodeHashes: recovery.hashes, enabledAt: now }))) throw identityError('IDENTITY_TWO_FACTOR_ON');
      request.log.info({ userId: user.id }, 'two-step sign-in turned on');
      noticeAccountChange(deps, user, 'two-factor-on', requestTraceContext(request));
      return { recoveryCodes: recovery.codes };
    },
  );

  routes.post(
    '/api/me/two-factor/recovery-codes',
    {
      preHandler: userGuard,
      schema: { tags, summary: 'New recovery codes (the earlier ones stop working)', body: passwordBody, response: { 200: recoveryCodesResponse } },
    },
    async (request) => {
      const user = await withPassword(request, request.body.password);
      const recovery = newRecoveryCodes();
      if (!(await deps.users.replaceRecoveryCodes(user.id, recovery.hashes))) throw identityError('IDENTITY_TWO_FACTOR_OFF');
      noticeAccountChange(deps, user, 'recovery-codes-renewed', requestTraceContext(request));
      return { recoveryCodes: recovery.codes };
    },
  );

  routes.delete(
    '/api/me/two-factor',
    {
      preHandler: userGuard,
      schema: { tags, summary: 'Turn off two-step sign-in', description: "409 `IDENTITY_TWO_FACTOR_OFF` while it is off.", body: passwordBody, response: { 204: z.undefined().describe('Off') } },
    },
    async (request, reply) => {
      const user = await withPassword(request, request.body.password);
      if (!(await deps.users.disableTwoFactor(user.id))) throw identityError('IDENTITY_TWO_FACTOR_OFF');
      request.log.info({ userId: user.id }, 'two-step sign-in turned off');
      noticeAccountChange(deps, user, 'two-factor-off', requestTraceContext(request));
      return reply.code(204).send();
    },
  );
}
