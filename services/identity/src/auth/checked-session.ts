import type { SessionRecord } from '@platform/contracts';
import type { IdentityDeps } from '../identity-deps';
import type { StoredUser } from '../users/user-record';
import type { SessionDevice } from './session-device';

/**
 * Opens a session for `user`, whose credentials were checked at `generation` (the credential
 * generation read in the same document as the password hash that was verified, or the one a reset
 * wrote), unless they changed meanwhile; null then, and nothing is left behind.
 *
 * A change of credentials (a new password, the account's deletion) moves the generation on and
 * only then ends the account's sessions (Sessions.revokeAll); here the session is written first and
 * the generation read after. So a sign-in that checked the old password either wrote its session
 * before the change, and the change's revocation finds and ends it, or reads the new generation and
 * ends the session itself before its token is shown to anyone. Costs one read of the user by id
 * (the generation alone) per sign-in; session loading on each request is unchanged.
 */
export async function openCheckedSession(
  deps: Pick<IdentityDeps, 'sessions' | 'users'>,
  user: StoredUser,
  device: SessionDevice,
  generation: number,
): Promise<{ token: string; session: SessionRecord; knownDevice: boolean } | null> {
  const opened = await deps.sessions.create(user, device);
  let current: number | null;
  try {
    current = await deps.users.credentialGeneration(user.id);
  } catch (error) {
    await deps.sessions.revoke(opened.token).catch(() => undefined);
    throw error;
  }
  if (current === generation) return opened;
  await deps.sessions.revoke(opened.token);
  return null;
}
