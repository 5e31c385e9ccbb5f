import { useEffect } from 'react';
import { LoadError } from '../components/load-error';
import { useLoad } from '../components/use-load';
import { Link, tokenInFragment } from '../router';
import { useSession } from '../session';

/**
 * Where a mailed link that proves a mailbox leads (a new address, the account's own): it sends the
 * link's token at once, signed in or not, and says what it proved, or the server's refusal.
 */
export function LinkConfirmation({ title, confirm, proved }: { title: string; confirm: (token: string) => Promise<{ email: string }>; proved: (email: string) => string }) {
  const { user, refresh } = useSession();
  const token = tokenInFragment();
  const confirmed = useLoad(async () => (token ? confirm(token) : undefined), token ?? 'no token');
  const email = confirmed.value?.email;
  // A signed-in console shows what changed from now on: read once the link is confirmed
  // (not on every change of the user, which the read itself makes).
  const signedIn = user !== null && user !== undefined;
  useEffect(() => {
    if (email && signedIn) void refresh().catch(() => undefined);
  }, [email, signedIn, refresh]);

  return (
    <main className="narrow">
      <h1>{title}</h1>
      {!token && <p role="alert" className="form-error">This page opens from the link in the mail; this address has no token.</p>}
      {email && <p role="status">{proved(email)}</p>}
      <LoadError error={confirmed.error} />
      {confirmed.error !== undefined && <p>Link not working? Ask for a new one on your account screen.</p>}
      <p>{user ? <Link to="/projects">Open your projects</Link> : <Link to="/sign-in">Sign in</Link>}</p>
    </main>
  );
}
