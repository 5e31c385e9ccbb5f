import type { StoredUser } from '../users/user-record';
import type { IdentityDeps } from '../identity-deps';

/**
 * Makes the account with `email` a platform owner (the production counterpart of the development
 * promotion) and updates its live sessions, so the change holds without signing in again.
 * Answers the user, or null when no account has that email.
 */
export async function promoteOwner(deps: Pick<IdentityDeps, 'users' | 'sessions'>, email: string): Promise<StoredUser | null> {
  const found = await deps.users.findByEmail(email.trim().toLowerCase());
  if (!found) return null;
  const user = await deps.users.update(found.id, { $set: { platformOwner: true } });
  if (!user) return null;
  await deps.sessions.refresh(user);
  return user;
}
