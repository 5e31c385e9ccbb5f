import { Field } from '../components/field';
import { InvitationNotice } from '../components/invitation-notice';
import { keepingReturnPath, Link } from '../router';
import { useSession } from '../session';
import { useAccountForm } from '../components/use-account-form';

/** Sign in; for an account with two-step sign-in the server asks for the code, and the field for it appears. */
export function SignIn() {
  const { signIn } = useSession();
  const { errors, busy, submit } = useAccountForm(['email', 'password', 'code'], (form) => signIn(String(form.get('email')), String(form.get('password')), String(form.get('code') ?? '')));
  const askCode = errors.fields.code !== undefined;

  return (
    <main className="narrow">
      <h1>Sign in</h1>
      <InvitationNotice />
      {new URLSearchParams(window.location.search).get('account') === 'deleted' && <p role="status">Your account is deleted.</p>}
      <form onSubmit={submit}>
        <Field label="Email" name="email" type="email" autoComplete="username" required error={errors.fields.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.fields.password} />
        {askCode && <Field label="Code" name="code" autoComplete="one-time-code" inputMode="numeric" autoFocus error={errors.fields.code} />}
        {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p>
        No account? <Link to={keepingReturnPath('/sign-up')}>Create one</Link>
      </p>
    </main>
  );
}
