import { useState, type FormEvent } from 'react';
import { formErrors, noErrors, type FormErrors } from './form-errors';
import { navigate, returnPath } from '../router';

/**
 * A form of the signed-out screens (sign in, sign up, a forgotten password): `send` takes its
 * fields; once it resolves `done` runs (by default the visitor goes back where they came from), and
 * a refusal shows beside the field it names (the others under the form). `busy` is true while it
 * is sent, so a second click does not send it again.
 */
export function useAccountForm(fields: readonly string[], send: (form: FormData) => Promise<void>, done: () => void = () => navigate(returnPath())) {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      await send(form);
      setErrors(noErrors);
      done();
    } catch (error) {
      setErrors(formErrors(error, fields));
    } finally {
      setBusy(false);
    }
  };

  return { errors, busy, submit };
}
