import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { LoadError } from '../components/load-error';

/** While the account's address is not confirmed: says so, with `Send the link again` (`POST /api/me/email-verification`). */
export function EmailUnconfirmed({ email }: { email: string }) {
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<unknown>();
  const send = async () => {
    try {
      setStatus((await unwrap(api.POST('/api/me/email-verification'))).message);
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section aria-label="Email not confirmed" className="notice">
      <p>
        {email} is not confirmed yet: open the link in the welcome mail.{' '}
        <button type="button" className="link" onClick={() => void send()}>
          Send the link again
        </button>
      </p>
      {status && <p role="status">{status}</p>}
      <LoadError error={error} />
    </section>
  );
}
