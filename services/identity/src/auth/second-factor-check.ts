import { identityError } from '../errors';
import type { IdentityDeps } from '../identity-deps';
import type { UserRecord } from '../users/user-record';
import { matchCode } from './two-factor';

/**
 * The second step of a sign-in (or of a password reset, which signs in) for a user who turned
 * two-step sign-in on: 401 `IDENTITY_TWO_FACTOR_REQUIRED` without a code, 401
 * `IDENTITY_TWO_FACTOR_CODE_INVALID` for a wrong, used or stale one. The caller has counted the
 * attempt with the login throttle, so codes cannot be guessed faster than passwords.
 */
export async function requireSecondFactor(deps: Pick<IdentityDeps, 'users' | 'clock'>, user: UserRecord, code: string | undefined): Promise<void> {
  if (!user.twoFactor) return;
  if (!code) throw identityError('IDENTITY_TWO_FACTOR_REQUIRED', { details: { field: 'code' } });
  const match = matchCode(user.twoFactor, code, deps.clock());
  if (!match || !(await deps.users.spendTwoFactorCode(user.id, match))) throw identityError('IDENTITY_TWO_FACTOR_CODE_INVALID', { details: { field: 'code' } });
}
