import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { Field } from '../components/field';
import { formErrors, noErrors, type FormErrors } from '../components/form-errors';
import { SubmitForm } from '../components/submit-form';
import { useSession } from '../session';
import { AccountSessions, signedOutElsewhere } from './account-sessions';
import { AccountTokens } from './account-tokens';
import { ChangeEmail } from './change-email';
import { DeleteAccount } from './delete-account';
import { EmailUnconfirmed } from './email-unconfirmed';
import { TwoStepSignIn } from './two-step-sign-in';

const FIELDS = ['currentPassword', 'newPassword'] as const;

/** Which part of the screen the status line speaks of, so it shows under that part. */
type Status = { about: 'id' | 'password' | 'sessions' | 'tokens'; text: string };

/** The signed-in user's account: who they are, a new email (confirmed by a mailed link), a new password (which signs out their other devices), two-step sign-in, where they are signed in, access tokens, and deleting it. */
export function Account() {
  const { user } = useSession();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [status, setStatus] = useState<Status>();
  const [passwordChanges, setPasswordChanges] = useState(0);

  const changePassword = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    try {
      const { endedSessions } = await unwrap(api.PUT('/api/me/password', { body: { currentPassword: String(fields.get('currentPassword')), newPassword: String(fields.get('newPassword')) } }));
      setErrors(noErrors);
      form.reset();
      setStatus({ about: 'password', text: `Password changed. ${signedOutElsewhere(endedSessions)}` });
      setPasswordChanges((count) => count + 1);
    } catch (error) {
      setStatus(undefined);
      setErrors(formErrors(error, FIELDS));
    }
  };

  if (!user) return null;
  return (
    <main className="narrow account">
      <h1>Your account</h1>
      <p>
        {user.displayName} · {user.email}
      </p>
      {!user.emailVerified && <EmailUnconfirmed email={user.email} />}
      <p className="muted user-id-line">
        Your user id, for colleagues who add you to a project or tenant: <code>{user.id}</code>{' '}
        <button type="button" className="link" onClick={() => void navigator.clipboard.writeText(user.id).then(() => setStatus({ about: 'id', text: 'Copied your user id.' }))}>
          Copy
        </button>
      </p>
      {status?.about === 'id' && <p role="status">{status.text}</p>}
      <ChangeEmail />
      <h2>Change password</h2>
      <SubmitForm label="Change password" className="account" submitLabel="Change password" formError={errors.form} onSubmit={changePassword}>
        <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" error={errors.fields.currentPassword} />
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" error={errors.fields.newPassword} />
      </SubmitForm>
      {status?.about === 'password' && <p role="status">{status.text}</p>}
      <p className="muted">Changing it signs you out on every other device; this one stays signed in.</p>
      <TwoStepSignIn />
      <h2>Where you are signed in</h2>
      <AccountSessions reloadKey={`sessions:${passwordChanges}`} onStatus={(text) => setStatus({ about: 'sessions', text })} />
      {status?.about === 'sessions' && <p role="status">{status.text}</p>}
      <h2>Access tokens</h2>
      <p className="muted">
        For a program acting as you (<code>Authorization: Bearer</code>) without your password. Signing out elsewhere and changing the password keep them; a password reset ends them.
      </p>
      <AccountTokens onStatus={(text) => setStatus({ about: 'tokens', text })} />
      {status?.about === 'tokens' && <p role="status">{status.text}</p>}
      <DeleteAccount />
    </main>
  );
}
