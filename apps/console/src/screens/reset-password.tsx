import { Field } from '../components/field';
import { useAccountForm } from '../components/use-account-form';
import { Link, tokenInFragment } from '../router';
import { useSession } from '../session';

/** Where a mailed reset link leads: choose a new password, which signs in and opens the projects. */
export function ResetPassword() {
  const { resetPassword } = useSession();
  const token = tokenInFragment();
  const { errors, busy, submit } = useAccountForm(['password', 'code'], (form) => resetPassword(token ?? '', String(form.get('password')), String(form.get('code') ?? '')));
  // With two-step sign-in on, the server asks for the code too; the link keeps working until then.
  const askCode = errors.fields.code !== undefined;

  return (
    <main className="narrow">
      <h1>Choose a new password</h1>
      {token ? (
        <form onSubmit={submit} noValidate aria-label="Choose a new password">
          <Field label="New password" name="password" type="password" autoComplete="new-password" error={errors.fields.password} />
          {askCode && <Field label="Code" name="code" autoComplete="one-time-code" inputMode="numeric" autoFocus error={errors.fields.code} />}
          {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
          <button type="submit" disabled={busy}>Save and sign in</button>
        </form>
      ) : (
        <p role="alert" className="form-error">This page opens from the link in the mail; this address has no token.</p>
      )}
      <p>
        Link not working? <Link to="/forgot-password">Ask for a new one</Link>
      </p>
    </main>
  );
}
