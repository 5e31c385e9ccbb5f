import { useState } from 'react';
import { Link } from '../router';
import { useSession } from '../session';
import { EmailUnconfirmed } from './email-unconfirmed';

/**
 * What a signed-in account sees everywhere but its account screen while the platform requires a
 * confirmed email and its own is not (`emailConfirmationRequired`): the gateway refuses it every
 * other route until the mailed link is opened.
 */
export function ConfirmEmailFirst({ email }: { email: string }) {
  const { refresh } = useSession();
  const [checked, setChecked] = useState(false);
  const check = async () => {
    await refresh();
    // Still here after the refresh: the address is not confirmed yet.
    setChecked(true);
  };
  return (
    <main className="narrow">
      <h1>Confirm your email first</h1>
      <p>This platform opens its projects to accounts whose email address is confirmed: open the link we mailed you, then continue here.</p>
      <EmailUnconfirmed email={email} />
      <p>
        <button type="button" onClick={() => void check()}>
          I have confirmed it
        </button>
      </p>
      {checked && (
        <p role="status" className="form-error">
          Not confirmed yet: the link in the mail confirms it.
        </p>
      )}
      <p>
        Mistyped the address? <Link to="/account">Change it on your account</Link>.
      </p>
    </main>
  );
}
