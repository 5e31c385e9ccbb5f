import { Field } from '../components/field';
import { InvitationNotice } from '../components/invitation-notice';
import { keepingReturnPath, Link } from '../router';
import { useSession } from '../session';
import { useAccountForm } from '../components/use-account-form';

export function SignUp() {
  const { signUp } = useSession();
  const { errors, busy, submit } = useAccountForm(['email', 'password', 'displayName'], (form) => signUp(String(form.get('email')), String(form.get('password')), String(form.get('displayName'))));

  return (
    <main className="narrow">
      <h1>Create an account</h1>
      <InvitationNotice />
      <form onSubmit={submit} noValidate>
        <Field label="Email" name="email" type="email" autoComplete="username" error={errors.fields.email} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" error={errors.fields.password} />
        <Field label="Display name" name="displayName" autoComplete="name" error={errors.fields.displayName} />
        {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
        <button type="submit" disabled={busy}>Sign up</button>
      </form>
      <p>
        Have an account? <Link to={keepingReturnPath('/sign-in')}>Sign in</Link>
      </p>
    </main>
  );
}
