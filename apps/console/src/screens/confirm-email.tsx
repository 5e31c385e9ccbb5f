import { api, unwrap } from '../api/client';
import { LinkConfirmation } from './link-confirmation';

/** Where the link mailed to a new address leads (`POST /api/auth/email-change/confirm`): the account's email becomes it. */
export function ConfirmEmail() {
  return (
    <LinkConfirmation
      title="Confirm your new email"
      confirm={(token) => unwrap(api.POST('/api/auth/email-change/confirm', { body: { token } }))}
      proved={(email) => `Your email is now ${email}. Sign in with it from now on.`}
    />
  );
}
