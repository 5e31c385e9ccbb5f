import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { useAccountForm } from '../components/use-account-form';
import { Link } from '../router';

/** Asks for a mailed link to choose a new password; the answer is the same whether or not the account exists. */
export function ForgotPassword() {
  const [sent, setSent] = useState<string>();
  const ask = async (form: FormData) => setSent((await unwrap(api.POST('/api/auth/password-reset', { body: { email: String(form.get('email')) } }))).message);
  // The page stays: its answer is the message under the form.
  const { errors, busy, submit } = useAccountForm(['email'], ask, () => undefined);

  return (
    <main className="narrow">
      <h1>Forgot your password?</h1>
      <p>Give the email of your account: we send a link to choose a new password.</p>
      <form onSubmit={submit} noValidate aria-label="Ask for a link">
        <Field label="Email" name="email" type="email" autoComplete="username" error={errors.fields.email} />
        {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
        <button type="submit" disabled={busy}>Send the link</button>
      </form>
      {sent && <p role="status">{sent}</p>}
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </main>
  );
}
