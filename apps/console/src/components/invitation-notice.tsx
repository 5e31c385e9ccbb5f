import { returnPath } from '../router';

/** On sign-in and sign-up reached from an invitation link: why the link asks for an account first. */
export function InvitationNotice() {
  if (!returnPath().startsWith('/invitations/')) return null;
  return <p role="note">You were invited to a project. Sign in, or create an account, to see the invitation and answer it.</p>;
}
