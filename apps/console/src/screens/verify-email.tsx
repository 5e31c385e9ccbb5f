import { api, unwrap } from '../api/client';
import { LinkConfirmation } from './link-confirmation';

/** Where the welcome mail's link leads (`POST /api/auth/verify-email`): the account's address is confirmed. */
export function VerifyEmail() {
  return <LinkConfirmation title="Confirm your email" confirm={(token) => unwrap(api.POST('/api/auth/verify-email', { body: { token } }))} proved={(email) => `Thank you: ${email} is confirmed.`} />;
}
