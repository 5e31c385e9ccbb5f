import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { SubmitForm } from '../components/submit-form';

const FIELDS = ['email', 'password'] as const;

/** *Change email*: the new address and the password; a link to confirm it goes to the new address (`POST /api/me/email`). */
export function ChangeEmail() {
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState<string>();

  const ask = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    try {
      const { message } = await unwrap(api.POST('/api/me/email', { body: { email: String(fields.get('email')), password: String(fields.get('password')) } }));
      setErrors(noErrors);
      form.reset();
      setStatus(message);
    } catch (error) {
      setStatus(undefined);
      setErrors(formErrors(error, FIELDS));
    }
  };

  return (
    <>
      <h2>Change email</h2>
      <SubmitForm label="Change email" className="account" submitLabel="Send the link" formError={errors.form} status={status} onSubmit={ask}>
        <Field label="New email" name="email" type="email" autoComplete="email" error={errors.fields.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" error={errors.fields.password} />
      </SubmitForm>
    </>
  );
}
