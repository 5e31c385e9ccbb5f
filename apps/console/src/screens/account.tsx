import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { SubmitForm } from '../components/submit-form';
import { useSession } from '../session';

const FIELDS = ['currentPassword', 'newPassword'] as const;

/** The signed-in user's account: who they are, and a new password (which signs out their other devices). */
export function Account() {
  const { user } = useSession();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState<string>();

  const changePassword = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    try {
      const { endedSessions } = await unwrap(api.PUT('/api/me/password', { body: { currentPassword: String(fields.get('currentPassword')), newPassword: String(fields.get('newPassword')) } }));
      setErrors(noErrors);
      form.reset();
      setStatus(`Password changed. ${endedSessions === 0 ? 'No other device was signed in.' : `Signed out on ${endedSessions} other ${endedSessions === 1 ? 'device' : 'devices'}.`}`);
    } catch (error) {
      setStatus(undefined);
      setErrors(formErrors(error, FIELDS));
    }
  };

  if (!user) return null;
  return (
    <main className="narrow">
      <h1>Your account</h1>
      <p>
        {user.displayName} · {user.email}
      </p>
      <h2>Change password</h2>
      <SubmitForm label="Change password" className="account" submitLabel="Change password" formError={errors.form} onSubmit={changePassword}>
        <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" error={errors.fields.currentPassword} />
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" error={errors.fields.newPassword} />
      </SubmitForm>
      {status && <p role="status">{status}</p>}
      <p className="muted">Changing it signs you out on every other device; this one stays signed in.</p>
    </main>
  );
}
