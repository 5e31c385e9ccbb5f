import { useState, type FormEvent } from 'react';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { keepingReturnPath, Link, navigate, returnPath } from '../router';
import { useSession } from '../session';

export function SignIn() {
  const { signIn } = useSession();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      await signIn(String(form.get('email')), String(form.get('password')));
      setErrors(noErrors);
      navigate(returnPath());
    } catch (error) {
      setErrors(formErrors(error, ['email', 'password']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="narrow">
      <h1>Sign in</h1>
      <form onSubmit={submit}>
        <Field label="Email" name="email" type="email" autoComplete="username" required error={errors.fields.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.fields.password} />
        {errors.form && <p role="alert" className="form-error">{errors.form}</p>}
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p>
        No account? <Link to={keepingReturnPath('/sign-up')}>Create one</Link>
      </p>
    </main>
  );
}
