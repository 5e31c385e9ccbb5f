import { useState, type FormEvent } from 'react';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { keepingReturnPath, Link, navigate, returnPath } from '../router';
import { useSession } from '../session';

export function SignUp() {
  const { signUp } = useSession();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      await signUp(String(form.get('email')), String(form.get('password')), String(form.get('displayName')));
      setErrors(noErrors);
      navigate(returnPath());
    } catch (error) {
      setErrors(formErrors(error, ['email', 'password', 'displayName']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="narrow">
      <h1>Create an account</h1>
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
