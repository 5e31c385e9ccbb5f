import { useEffect } from 'react';
import { api, unwrap } from '../api/client';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { Link, tokenInFragment } from '../router';
import { useSession } from '../session';

/**
 * Where the link mailed to a new address leads: it confirms the address at once
 * (`POST /api/auth/email-change/confirm`), signed in or not, and says what the email is now.
 */
export function ConfirmEmail() {
  const { user, refresh } = useSession();
  const token = tokenInFragment();
  const confirmed = useLoad(async () => (token ? unwrap(api.POST('/api/auth/email-change/confirm', { body: { token } })) : undefined), token ?? 'no token');
  const email = confirmed.value?.email;
  // A signed-in console shows the new address from now on: read once the address is confirmed
  // (not on every change of the user, which the read itself makes).
  const signedIn = user !== null && user !== undefined;
  useEffect(() => {
    if (email && signedIn) void refresh().catch(() => undefined);
  }, [email, signedIn, refresh]);

  return (
    <main className="narrow">
      <h1>Confirm your new email</h1>
      {!token && <p role="alert" className="form-error">This page opens from the link in the mail; this address has no token.</p>}
      {email && <p role="status">Your email is now {email}. Sign in with it from now on.</p>}
      <LoadError error={confirmed.error} />
      {confirmed.error !== undefined && <p>Link not working? Ask for a new one on your account screen.</p>}
      <p>{user ? <Link to="/projects">Open your projects</Link> : <Link to="/sign-in">Sign in</Link>}</p>
    </main>
  );
}
