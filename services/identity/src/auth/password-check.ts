import type { FastifyRequest } from 'fastify';
import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import type { UserRecord } from '../users/user-record';
import { verifyPassword } from './passwords';

/**
 * Checks `password` of a user read with its secrets as a sign-in checks it: counted by the login
 * throttle first, so a session left open on someone else's screen cannot be used to guess the
 * password; 403 `IDENTITY_WRONG_PASSWORD` naming `field` when it is wrong.
 */
export async function checkPassword(deps: Pick<IdentityDeps, 'throttle'>, request: FastifyRequest, user: UserRecord, password: string, field = 'password'): Promise<void> {
  await deps.throttle.takeAttempt(user.email, request.ip);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw identityError('IDENTITY_WRONG_PASSWORD', { ...(field === 'password' ? { message: 'The password is not right' } : {}), details: { field } });
  }
  await deps.throttle.recordSuccess(user.email, request.ip);
}

/** The signed-in user's record (secrets included) once `password` is checked (checkPassword). */
export async function userWithCheckedPassword(deps: Pick<IdentityDeps, 'users' | 'throttle'>, request: FastifyRequest, userId: string, password: string, field = 'password'): Promise<UserRecord> {
  const user = await deps.users.findWithSecretById(userId);
  if (!user) throw identityError('IDENTITY_USER_NOT_FOUND');
  await checkPassword(deps, request, user, password, field);
  return user;
}
