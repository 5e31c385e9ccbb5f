import { Field } from '../components/field';
import { keepingReturnPath, Link } from '../router';
import { useSession } from '../session';
import { useAccountForm } from '../components/use-account-form';

export function SignIn() {
  const { signIn } = useSession();
  const { errors, busy, submit } = useAccountForm(['email', 'password'], (form) => signIn(String(form.get('email')), String(form.get('password'))));

  return (
    <main className="narrow">
      <h1>Sign in</h1>
      {new URLSearchParams(window.location.search).get('account') === 'deleted' && <p role="status">Your account is deleted.</p>}
      <form onSubmit={submit}>
        <Field label="Email" name="email" type="email" autoComplete="username" required error={errors.fields.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.fields.password} />
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
