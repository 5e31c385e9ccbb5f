import type { IdentityDeps } from '../identity-deps';

/**
 * The inviter's display name as the invited person sees it: inviting someone is telling them who
 * you are, whatever the inviter's profile shows to others.
 */
export async function inviterName(deps: Pick<IdentityDeps, 'users'>, inviterId: string): Promise<string> {
  return (await deps.users.findById(inviterId))?.displayName ?? 'A former user';
}
