import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { Link } from '../router';

/** Asks for a mailed link to choose a new password; the answer is the same whether or not the account exists. */
export function ForgotPassword() {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [sent, setSent] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email'));
    setBusy(true);
    try {
      setSent((await unwrap(api.POST('/api/auth/password-reset', { body: { email } }))).message);
      setErrors(noErrors);
    } catch (error) {
      setErrors(formErrors(error, ['email']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="narrow">
      <h1>Forgot your password?</h1>
      <p>Give the email of your account: we send a link to choose a new password.</p>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Ask for a link">
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
